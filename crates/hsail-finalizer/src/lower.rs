//! One HSAIL kernel → machine IR → machine code: kernarg layout, the ABI
//! input registers, and one `lower_<op>` per HSAIL operation.
//!
//! Every HSAIL register is a VGPR virtual register (`$c` as 0/1 in one
//! dword, `$s` one dword, `$d` two); constants that are not inline
//! constants are first moved into a VGPR (GFX9 VOP3 takes no literals).
//! The lane-level CFG is the validator's basic blocks; `amdgpu-codegen`
//! lowers it to EXEC masks.

use std::collections::HashMap;

use amdgpu_codegen::{Compiled, Function, MInst, Opnd, RegClass, Target, Terminator, VReg};
use amdgpu_object::abi::{SgprContent, WaveLayout, WorkItemIds};
use amdgpu_object::directives::KernelDirectives;
use brig::{
    BrigAluModifierMask, BrigCompareOperation, BrigDirectiveVariable, BrigModule, BrigOpcode,
    BrigRegisterKind, BrigRound, BrigSegment, BrigType, Code, OperandOffset,
};
use hsail::validate::CodeBlock;

use crate::{Error, Locator, Options, Result};

mod divide;
mod memory;

/// One explicit kernel argument.
#[derive(Debug, Clone)]
pub(crate) struct ArgInfo {
    pub name: String,
    pub offset: u64,
    pub size: u64,
}

/// What the kernel needs from the hardware at wave start.
#[derive(Debug, Clone, Default)]
pub(crate) struct Uses {
    pub dispatch_ptr: bool,
    pub kernarg_ptr: bool,
    pub workgroup_id_dims: u8,
    pub workitem_id_dims: u8,
}

/// A lowered and compiled kernel.
#[derive(Debug, Clone)]
pub(crate) struct LoweredKernel {
    pub name: String,
    pub args: Vec<ArgInfo>,
    pub kernarg_size: u32,
    pub kernarg_align: u32,
    pub uses: Uses,
    /// Bytes of group segment the kernel's `group` variables take.
    pub group_size: u32,
    pub compiled: Compiled,
}

/// A source operand.
#[derive(Debug, Clone, Copy)]
enum Src {
    Reg(VReg),
    Const(u64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    U,
    S,
    B,
    F,
}

/// Class and bit size of a BRIG type.
fn ty(t: BrigType) -> Option<(Kind, u32)> {
    Some(match t {
        BrigType::U8 => (Kind::U, 8),
        BrigType::U16 => (Kind::U, 16),
        BrigType::U32 => (Kind::U, 32),
        BrigType::U64 => (Kind::U, 64),
        BrigType::S8 => (Kind::S, 8),
        BrigType::S16 => (Kind::S, 16),
        BrigType::S32 => (Kind::S, 32),
        BrigType::S64 => (Kind::S, 64),
        BrigType::F16 => (Kind::F, 16),
        BrigType::F32 => (Kind::F, 32),
        BrigType::F64 => (Kind::F, 64),
        BrigType::B1 => (Kind::B, 1),
        BrigType::B8 => (Kind::B, 8),
        BrigType::B16 => (Kind::B, 16),
        BrigType::B32 => (Kind::B, 32),
        BrigType::B64 => (Kind::B, 64),
        _ => return None,
    })
}

fn r(v: VReg) -> Opnd {
    Opnd::Reg {
        reg: v,
        offset: 0,
        width: 1,
    }
}

fn dw(v: VReg, i: u8) -> Opnd {
    Opnd::Reg {
        reg: v,
        offset: i,
        width: 1,
    }
}

fn pair(v: VReg) -> Opnd {
    Opnd::Reg {
        reg: v,
        offset: 0,
        width: 2,
    }
}

struct Cx<'a> {
    m: &'a BrigModule<'a>,
    loc: &'a Locator<'a>,
    t: Target,
    f: Function,
    regs: HashMap<(u16, u16), VReg>,
    /// Kernarg variable directive → byte offset in the kernarg segment.
    kernargs: HashMap<u32, u32>,
    /// Group variable directive (definitions and declarations) → LDS address.
    group: HashMap<u32, u32>,
    kernarg_ptr: Option<VReg>,
    dispatch_ptr: Option<VReg>,
    wgid: [Option<VReg>; 3],
    tid: [Option<VReg>; 3],
    cur: usize,
    at: u32,
    name: String,
}

pub(crate) fn lower_kernel(
    m: &BrigModule<'_>,
    module_syms: &[hsail::validate::Symbol],
    cb: &CodeBlock,
    loc: &Locator<'_>,
    opts: &Options,
    t: Target,
) -> Result<LoweredKernel> {
    let name = cb.name.trim_start_matches('&').to_string();
    let brig_err = |e: brig::BrigError| Error::Invalid(e.to_string());

    // Kernarg layout: natural (or declared) alignment, offsets from 0.
    let mut args = Vec::new();
    let mut kernargs = HashMap::new();
    let mut off = 0u32;
    let mut max_align = 1u32;
    for &a in &cb.in_args {
        let v: &BrigDirectiveVariable = m.code_as(a).map_err(brig_err)?;
        let Some(size) = v.type_.byte_size() else {
            return Err(loc.unsupported(format!("kernel argument of type {:?}", v.type_), a.get()));
        };
        let count = if v.type_.is_array() {
            v.dim.get() as u32
        } else {
            1
        };
        let size = size * count;
        let align = v
            .align
            .bytes()
            .unwrap_or(1)
            .max(v.type_.base().byte_size().unwrap_or(1));
        off = off.next_multiple_of(align);
        max_align = max_align.max(align);
        kernargs.insert(a.get(), off);
        let arg_name = m.string(v.name).map_err(brig_err)?;
        args.push(ArgInfo {
            name: arg_name.trim_start_matches('%').to_string(),
            offset: u64::from(off),
            size: u64::from(size),
        });
        off += size;
    }
    let kernarg_size = off;
    let (group, group_size) = memory::group_layout(m, module_syms, cb, loc)?;

    // Pre-scan: which ABI inputs the kernel reads.
    let mut uses = Uses {
        workgroup_id_dims: 1,
        workitem_id_dims: 1,
        ..Uses::default()
    };
    for &at in &cb.instructions {
        let code = m.code(at).map_err(brig_err)?;
        let Some(inst) = code.inst() else { continue };
        let op = inst.opcode;
        let dim = || -> u8 {
            m.operand_list(inst.operands)
                .ok()
                .and_then(|l| l.get(1).copied())
                .and_then(|o| const_of(m, o))
                .map_or(0, |d| d.min(2) as u8)
        };
        match op {
            BrigOpcode::LD => {
                if let Code::InstMem(mem) = code
                    && mem.segment == BrigSegment::KERNARG
                {
                    uses.kernarg_ptr = true;
                }
            }
            BrigOpcode::WORKITEMABSID | BrigOpcode::CURRENTWORKGROUPSIZE => {
                uses.dispatch_ptr = true;
                let d = dim() + 1;
                uses.workgroup_id_dims = uses.workgroup_id_dims.max(d);
                if op == BrigOpcode::WORKITEMABSID {
                    uses.workitem_id_dims = uses.workitem_id_dims.max(d);
                }
            }
            BrigOpcode::WORKGROUPSIZE | BrigOpcode::GRIDSIZE => uses.dispatch_ptr = true,
            BrigOpcode::WORKITEMID => uses.workitem_id_dims = uses.workitem_id_dims.max(dim() + 1),
            BrigOpcode::WORKGROUPID => {
                uses.workgroup_id_dims = uses.workgroup_id_dims.max(dim() + 1)
            }
            _ => {}
        }
    }

    // The wave layout those enables give.
    let mut kd = KernelDirectives::new();
    let pre = [
        ("user_sgpr_dispatch_ptr", u64::from(uses.dispatch_ptr)),
        ("user_sgpr_kernarg_segment_ptr", u64::from(uses.kernarg_ptr)),
        ("system_sgpr_workgroup_id_x", 1),
        (
            "system_sgpr_workgroup_id_y",
            u64::from(uses.workgroup_id_dims >= 2),
        ),
        (
            "system_sgpr_workgroup_id_z",
            u64::from(uses.workgroup_id_dims >= 3),
        ),
        (
            "system_vgpr_workitem_id",
            u64::from(uses.workitem_id_dims - 1),
        ),
        ("next_free_vgpr", 4),
        ("next_free_sgpr", 8),
    ];
    for (n, v) in pre {
        kd.set(n, v, &opts.target)
            .map_err(|message| Error::Object { message })?;
    }
    if t == Target::Gfx90a {
        kd.set("accum_offset", 4, &opts.target)
            .map_err(|message| Error::Object { message })?;
    }
    let desc = kd
        .build(&opts.target)
        .map_err(|message| Error::Object { message })?;
    let layout = WaveLayout::new(&desc, opts.target.processor);

    let mut cx = Cx {
        m,
        loc,
        t,
        f: Function::new(&name),
        regs: HashMap::new(),
        kernargs,
        group,
        kernarg_ptr: None,
        dispatch_ptr: None,
        wgid: [None; 3],
        tid: [None; 3],
        cur: 0,
        at: cb.directive.get(),
        name: name.clone(),
    };
    cx.prologue(&layout)?;

    // Blocks.
    let mut label_block = HashMap::new();
    for (i, b) in cb.blocks.iter().enumerate() {
        cx.f.add_block();
        for l in &b.labels {
            label_block.insert(l.get(), i);
        }
    }
    if cb.blocks.is_empty() {
        cx.f.add_block();
    }
    for (bi, b) in cb.blocks.iter().enumerate() {
        cx.cur = bi;
        let mut term = if bi + 1 < cb.blocks.len() {
            Terminator::Br(bi + 1)
        } else {
            Terminator::Ret
        };
        for &at in &cb.instructions[b.first..b.end] {
            cx.at = at.get();
            let code = m.code(at).map_err(brig_err)?;
            let Some(inst) = code.inst() else { continue };
            let ops = m.operand_list(inst.operands).map_err(brig_err)?;
            match inst.opcode {
                BrigOpcode::RET => term = Terminator::Ret,
                BrigOpcode::BR => {
                    term = Terminator::Br(cx.label_target(&ops, 0, &label_block)?);
                }
                BrigOpcode::CBR => {
                    let then = cx.label_target(&ops, 1, &label_block)?;
                    let cond = match cx.src(ops[0])? {
                        Src::Reg(v) => v,
                        Src::Const(c) => {
                            let v = cx.vtemp(1);
                            cx.emit("v_mov_b32", vec![r(v), Opnd::constant(c as u32)])?;
                            v
                        }
                    };
                    term = Terminator::CondBr {
                        cond,
                        then,
                        otherwise: (bi + 1).min(cb.blocks.len().saturating_sub(1)),
                    };
                    if bi + 1 >= cb.blocks.len() {
                        return Err(cx.unsupported("cbr at the end of a kernel".into()));
                    }
                }
                _ => cx.lower_inst(&code, &ops)?,
            }
        }
        cx.f.blocks[bi].term = term;
    }

    let compiled = amdgpu_codegen::compile(cx.f, t).map_err(|source| Error::Codegen {
        kernel: name.clone(),
        source,
    })?;
    Ok(LoweredKernel {
        name,
        args,
        kernarg_size,
        kernarg_align: max_align,
        uses,
        group_size,
        compiled,
    })
}

/// The value of a constant operand (up to 8 bytes, little-endian).
fn const_of(m: &BrigModule<'_>, o: OperandOffset) -> Option<u64> {
    match m.operand(o).ok()? {
        brig::Operand::ConstantBytes(c) => {
            let bytes = m.data_bytes(c.bytes).ok()?;
            let mut v = [0u8; 8];
            let n = bytes.len().min(8);
            v[..n].copy_from_slice(&bytes[..n]);
            Some(u64::from_le_bytes(v))
        }
        brig::Operand::Wavesize(_) => Some(64),
        _ => None,
    }
}

impl Cx<'_> {
    fn unsupported(&self, what: String) -> Error {
        self.loc.unsupported(what, self.at)
    }

    /// An ABI input register the usage scan should have enabled: a located
    /// error, not a panic, if the scan and the lowering ever disagree.
    fn input(&self, reg: Option<VReg>, what: &str) -> Result<VReg> {
        reg.ok_or_else(|| {
            self.unsupported(format!(
                "{what} (internal error: the kernel's usage scan did not enable it)"
            ))
        })
    }

    fn emit(&mut self, mnemonic: &str, ops: Vec<Opnd>) -> Result<()> {
        let inst = self.minst(mnemonic, ops)?;
        self.f.blocks[self.cur].insts.push(inst);
        Ok(())
    }

    fn emit_inst(&mut self, inst: MInst) {
        self.f.blocks[self.cur].insts.push(inst);
    }

    fn minst(&self, mnemonic: &str, ops: Vec<Opnd>) -> Result<MInst> {
        MInst::new(mnemonic, self.t, ops).map_err(|source| Error::Codegen {
            kernel: self.name.clone(),
            source,
        })
    }

    fn vtemp(&mut self, width: u8) -> VReg {
        self.f.new_vreg(RegClass::Vgpr, width)
    }

    fn stemp(&mut self, width: u8) -> VReg {
        self.f.new_vreg(RegClass::Sgpr, width)
    }

    /// Copies the ABI input registers into virtual registers.
    fn prologue(&mut self, layout: &WaveLayout) -> Result<()> {
        let mut pro = Vec::new();
        for slot in layout.user_sgprs.iter().chain(&layout.system_sgprs) {
            for i in 0..slot.content.count() {
                self.f.live_in_sgprs.push((slot.first + i) as u16);
            }
            let first = slot.first as u16;
            match slot.content {
                SgprContent::KernargSegmentPtr | SgprContent::DispatchPtr => {
                    let v = self.stemp(2);
                    pro.push(self.minst("s_mov_b64", vec![pair(v), Opnd::sgpr(first, 2)])?);
                    if slot.content == SgprContent::DispatchPtr {
                        self.dispatch_ptr = Some(v);
                    } else {
                        self.kernarg_ptr = Some(v);
                    }
                }
                SgprContent::WorkgroupId(d) => {
                    let v = self.stemp(1);
                    pro.push(self.minst("s_mov_b32", vec![r(v), Opnd::sgpr(first, 1)])?);
                    self.wgid[usize::from(d)] = Some(v);
                }
                _ => {}
            }
        }
        let dims = layout.work_item_ids.dims();
        for d in 0..dims {
            let v = self.vtemp(1);
            match layout.work_item_ids {
                WorkItemIds::Packed { .. } => {
                    self.f.live_in_vgprs = vec![0];
                    pro.push(self.minst(
                        "v_bfe_u32",
                        vec![
                            r(v),
                            Opnd::vgpr(0, 1),
                            Opnd::constant(10 * u32::from(d)),
                            Opnd::constant(10),
                        ],
                    )?);
                }
                WorkItemIds::Separate { .. } => {
                    self.f.live_in_vgprs.push(u16::from(d));
                    pro.push(self.minst("v_mov_b32", vec![r(v), Opnd::vgpr(u16::from(d), 1)])?);
                }
            }
            self.tid[usize::from(d)] = Some(v);
        }
        self.f.prologue = pro;
        Ok(())
    }

    fn label_target(
        &self,
        ops: &[OperandOffset],
        i: usize,
        label_block: &HashMap<u32, usize>,
    ) -> Result<usize> {
        let o = ops
            .get(i)
            .copied()
            .ok_or_else(|| self.unsupported("branch without a label".into()))?;
        match self.m.operand(o) {
            Ok(brig::Operand::CodeRef(c)) => label_block
                .get(&c.ref_.get())
                .copied()
                .ok_or_else(|| self.unsupported("branch to an unknown label".into())),
            _ => Err(self.unsupported("branch to a computed target".into())),
        }
    }

    fn reg(&mut self, kind: BrigRegisterKind, num: u16) -> Result<VReg> {
        let width = match kind {
            BrigRegisterKind::CONTROL | BrigRegisterKind::SINGLE => 1,
            BrigRegisterKind::DOUBLE => 2,
            _ => return Err(self.unsupported("128-bit ($q) registers".into())),
        };
        let key = (kind.raw(), num);
        if let Some(&v) = self.regs.get(&key) {
            return Ok(v);
        }
        let v = self.vtemp(width);
        self.regs.insert(key, v);
        Ok(v)
    }

    fn src(&mut self, o: OperandOffset) -> Result<Src> {
        if let Some(c) = const_of(self.m, o) {
            return Ok(Src::Const(c));
        }
        match self.m.operand(o) {
            Ok(brig::Operand::Register(reg)) => {
                Ok(Src::Reg(self.reg(reg.reg_kind, reg.reg_num.get())?))
            }
            _ => Err(self.unsupported("this operand kind".into())),
        }
    }

    fn dst(&mut self, o: OperandOffset) -> Result<VReg> {
        match self.m.operand(o) {
            Ok(brig::Operand::Register(reg)) => self.reg(reg.reg_kind, reg.reg_num.get()),
            _ => Err(self.unsupported("a destination that is not a register".into())),
        }
    }

    /// Dword `i` of a source, as a VGPR or an inline constant.
    fn val(&mut self, s: Src, i: u8) -> Result<Opnd> {
        match s {
            Src::Reg(v) => Ok(dw(v, i)),
            Src::Const(c) => {
                let part = (c >> (32 * u32::from(i))) as u32;
                let o = Opnd::constant(part);
                if !o.is_literal() {
                    return Ok(o);
                }
                let v = self.vtemp(1);
                self.emit("v_mov_b32", vec![r(v), o])?;
                Ok(r(v))
            }
        }
    }

    /// Dword `i` of a source for VOP1 (literals allowed).
    fn val_any(&self, s: Src, i: u8) -> Opnd {
        match s {
            Src::Reg(v) => dw(v, i),
            Src::Const(c) => Opnd::constant((c >> (32 * u32::from(i))) as u32),
        }
    }

    /// A source as a 64-bit VGPR pair.
    fn val64(&mut self, s: Src) -> Result<VReg> {
        match s {
            Src::Reg(v) => Ok(v),
            Src::Const(c) => {
                let v = self.vtemp(2);
                self.emit("v_mov_b32", vec![dw(v, 0), Opnd::constant(c as u32)])?;
                self.emit(
                    "v_mov_b32",
                    vec![dw(v, 1), Opnd::constant((c >> 32) as u32)],
                )?;
                Ok(v)
            }
        }
    }

    fn srcs(&mut self, ops: &[OperandOffset], from: usize) -> Result<Vec<Src>> {
        ops[from..].iter().map(|&o| self.src(o)).collect()
    }

    fn lower_inst(&mut self, code: &Code<'_>, ops: &[OperandOffset]) -> Result<()> {
        let Some(inst) = code.inst() else {
            return Ok(());
        };
        let op = inst.opcode;
        let name = op.short_name().unwrap_or("?").to_ascii_lowercase();
        let type_ = inst.type_;
        let tname = type_.short_name().unwrap_or("?").to_ascii_lowercase();
        let what = format!("instruction `{name}_{tname}`");
        match code {
            Code::InstBasic(_) | Code::InstMod(_) => {
                if let Code::InstMod(md) = code {
                    let ftz = md.modifier.raw() & BrigAluModifierMask::FTZ.raw() != 0;
                    let near = matches!(
                        md.round,
                        BrigRound::NONE | BrigRound::FLOAT_DEFAULT | BrigRound::FLOAT_NEAR_EVEN
                    );
                    if ftz || !near {
                        return Err(self.unsupported(format!(
                            "{what} with ftz or a rounding other than near"
                        )));
                    }
                }
                match op {
                    BrigOpcode::WORKITEMABSID
                    | BrigOpcode::WORKITEMID
                    | BrigOpcode::WORKGROUPID
                    | BrigOpcode::WORKGROUPSIZE
                    | BrigOpcode::CURRENTWORKGROUPSIZE
                    | BrigOpcode::GRIDSIZE => self.lower_dispatch(op, type_, ops, &what),
                    BrigOpcode::NOP => Ok(()),
                    _ => self.lower_alu(op, type_, ops, &what),
                }
            }
            Code::InstCmp(c) => self.lower_cmp(c, ops, &what),
            Code::InstCvt(c) => self.lower_cvt(c, ops, &what),
            Code::InstMem(mem) if mem.segment == BrigSegment::GROUP => match op {
                BrigOpcode::LD => self.lower_ld_group(mem, ops, &what),
                BrigOpcode::ST => self.lower_st_group(mem, ops, &what),
                _ => Err(self.unsupported(what)),
            },
            Code::InstMem(mem) => match op {
                BrigOpcode::LD => self.lower_ld(mem, ops, &what),
                BrigOpcode::ST => self.lower_st(mem, ops, &what),
                _ => Err(self.unsupported(what)),
            },
            Code::InstAddr(a) if op == BrigOpcode::LDA => self.lower_lda(a, ops, &what),
            Code::InstBr(_) if op == BrigOpcode::BARRIER => self.lower_barrier(),
            Code::InstBr(_) if op == BrigOpcode::WAVEBARRIER => Ok(()),
            Code::InstAtomic(a) => self.lower_atomic(a, ops, &what),
            Code::InstMemFence(f) => self.lower_memfence(f, &what),
            _ => Err(self.unsupported(what)),
        }
    }

    fn lower_alu(
        &mut self,
        op: BrigOpcode,
        type_: BrigType,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let Some((kind, bits)) = ty(type_) else {
            return Err(self.unsupported(what.to_string()));
        };
        let d = self.dst(ops[0])?;
        let s = self.srcs(ops, 1)?;
        let signed = kind == Kind::S;
        match (bits, kind) {
            (1, Kind::B) | (32, Kind::U | Kind::S | Kind::B) => {
                let bin = match (op, signed) {
                    (BrigOpcode::ADD, _) => Some("v_add_u32_e64"),
                    (BrigOpcode::SUB, _) => Some("v_sub_u32_e64"),
                    (BrigOpcode::MUL, _) => Some("v_mul_lo_u32"),
                    (BrigOpcode::MULHI, false) => Some("v_mul_hi_u32"),
                    (BrigOpcode::MULHI, true) => Some("v_mul_hi_i32"),
                    (BrigOpcode::AND, _) => Some("v_and_b32_e64"),
                    (BrigOpcode::OR, _) => Some("v_or_b32_e64"),
                    (BrigOpcode::XOR, _) => Some("v_xor_b32_e64"),
                    (BrigOpcode::MIN, false) => Some("v_min_u32_e64"),
                    (BrigOpcode::MIN, true) => Some("v_min_i32_e64"),
                    (BrigOpcode::MAX, false) => Some("v_max_u32_e64"),
                    (BrigOpcode::MAX, true) => Some("v_max_i32_e64"),
                    _ => None,
                };
                if let Some(mn) = bin.filter(|_| s.len() == 2) {
                    let a = self.val(s[0], 0)?;
                    let b = self.val(s[1], 0)?;
                    return self.emit(mn, vec![r(d), a, b]);
                }
                match op {
                    BrigOpcode::SHL | BrigOpcode::SHR if s.len() == 2 => {
                        let mn = match (op, signed) {
                            (BrigOpcode::SHL, _) => "v_lshlrev_b32_e64",
                            (_, false) => "v_lshrrev_b32_e64",
                            (_, true) => "v_ashrrev_i32_e64",
                        };
                        let a = self.val(s[0], 0)?;
                        let b = self.val(s[1], 0)?;
                        self.emit(mn, vec![r(d), b, a])
                    }
                    BrigOpcode::MOV => {
                        let a = self.val_any(s[0], 0);
                        self.emit("v_mov_b32", vec![r(d), a])
                    }
                    BrigOpcode::NOT if bits == 1 => {
                        let a = self.val(s[0], 0)?;
                        self.emit("v_xor_b32_e64", vec![r(d), a, Opnd::constant(1)])
                    }
                    BrigOpcode::NOT => {
                        let a = self.val_any(s[0], 0);
                        self.emit("v_not_b32", vec![r(d), a])
                    }
                    BrigOpcode::NEG => {
                        let a = self.val(s[0], 0)?;
                        self.emit("v_sub_u32_e64", vec![r(d), Opnd::constant(0), a])
                    }
                    BrigOpcode::DIV | BrigOpcode::REM if s.len() == 2 && kind != Kind::B => {
                        self.divrem32(op == BrigOpcode::REM, signed, d, s[0], s[1])
                    }
                    BrigOpcode::ABS if signed => {
                        let a = self.val(s[0], 0)?;
                        let t = self.vtemp(1);
                        self.emit("v_sub_u32_e64", vec![r(t), Opnd::constant(0), a])?;
                        self.emit("v_max_i32_e64", vec![r(d), a, r(t)])
                    }
                    _ => Err(self.unsupported(what.to_string())),
                }
            }
            (64, Kind::U | Kind::S | Kind::B) => self.lower_alu64(op, signed, d, &s, what),
            (32, Kind::F) => {
                let mn = match op {
                    BrigOpcode::ADD => "v_add_f32_e64",
                    BrigOpcode::SUB => "v_sub_f32_e64",
                    BrigOpcode::MUL => "v_mul_f32_e64",
                    BrigOpcode::MIN => "v_min_f32_e64",
                    BrigOpcode::MAX => "v_max_f32_e64",
                    BrigOpcode::FMA => "v_fma_f32",
                    BrigOpcode::MOV => {
                        let a = self.val_any(s[0], 0);
                        return self.emit("v_mov_b32", vec![r(d), a]);
                    }
                    BrigOpcode::NEG | BrigOpcode::ABS => {
                        let (mn, mask) = if op == BrigOpcode::NEG {
                            ("v_xor_b32_e64", 0x8000_0000)
                        } else {
                            ("v_and_b32_e64", 0x7fff_ffff)
                        };
                        let a = self.val(s[0], 0)?;
                        let k = self.val(Src::Const(mask), 0)?;
                        return self.emit(mn, vec![r(d), a, k]);
                    }
                    _ => return Err(self.unsupported(what.to_string())),
                };
                let mut v = vec![r(d)];
                for &x in &s {
                    v.push(self.val(x, 0)?);
                }
                self.emit(mn, v)
            }
            _ => Err(self.unsupported(what.to_string())),
        }
    }

    fn lower_alu64(
        &mut self,
        op: BrigOpcode,
        signed: bool,
        d: VReg,
        s: &[Src],
        what: &str,
    ) -> Result<()> {
        match op {
            BrigOpcode::MOV => {
                for i in 0..2 {
                    let a = self.val_any(s[0], i);
                    self.emit("v_mov_b32", vec![dw(d, i), a])?;
                }
                Ok(())
            }
            BrigOpcode::ADD | BrigOpcode::SUB => {
                let (lo, hi) = if op == BrigOpcode::ADD {
                    ("v_add_co_u32_e64", "v_addc_co_u32_e64")
                } else {
                    ("v_sub_co_u32_e64", "v_subb_co_u32_e64")
                };
                self.add64(lo, hi, d, s[0], s[1])
            }
            BrigOpcode::NEG => self.add64(
                "v_sub_co_u32_e64",
                "v_subb_co_u32_e64",
                d,
                Src::Const(0),
                s[0],
            ),
            BrigOpcode::AND | BrigOpcode::OR | BrigOpcode::XOR => {
                let mn = match op {
                    BrigOpcode::AND => "v_and_b32_e64",
                    BrigOpcode::OR => "v_or_b32_e64",
                    _ => "v_xor_b32_e64",
                };
                for i in 0..2 {
                    let a = self.val(s[0], i)?;
                    let b = self.val(s[1], i)?;
                    self.emit(mn, vec![dw(d, i), a, b])?;
                }
                Ok(())
            }
            BrigOpcode::NOT => {
                for i in 0..2 {
                    let a = self.val_any(s[0], i);
                    self.emit("v_not_b32", vec![dw(d, i), a])?;
                }
                Ok(())
            }
            BrigOpcode::SHL | BrigOpcode::SHR => {
                let mn = match (op, signed) {
                    (BrigOpcode::SHL, _) => "v_lshlrev_b64",
                    (_, false) => "v_lshrrev_b64",
                    (_, true) => "v_ashrrev_i64",
                };
                let a = self.val64(s[0])?;
                let b = self.val(s[1], 0)?;
                self.emit(mn, vec![pair(d), b, pair(a)])
            }
            BrigOpcode::MUL => {
                let a = self.val64(s[0])?;
                let b = self.val64(s[1])?;
                let lo = self.vtemp(1);
                let hi = self.vtemp(1);
                let t1 = self.vtemp(1);
                let t2 = self.vtemp(1);
                self.emit("v_mul_lo_u32", vec![r(lo), dw(a, 0), dw(b, 0)])?;
                self.emit("v_mul_hi_u32", vec![r(hi), dw(a, 0), dw(b, 0)])?;
                self.emit("v_mul_lo_u32", vec![r(t1), dw(a, 0), dw(b, 1)])?;
                self.emit("v_mul_lo_u32", vec![r(t2), dw(a, 1), dw(b, 0)])?;
                self.emit("v_add_u32_e64", vec![r(hi), r(hi), r(t1)])?;
                self.emit("v_add_u32_e64", vec![dw(d, 1), r(hi), r(t2)])?;
                self.emit("v_mov_b32", vec![dw(d, 0), r(lo)])
            }
            BrigOpcode::MIN | BrigOpcode::MAX => {
                let a = self.val64(s[0])?;
                let b = self.val64(s[1])?;
                let cmp = match (op, signed) {
                    (BrigOpcode::MIN, false) => "v_cmp_lt_u64_e64",
                    (BrigOpcode::MIN, true) => "v_cmp_lt_i64_e64",
                    (_, false) => "v_cmp_gt_u64_e64",
                    (_, true) => "v_cmp_gt_i64_e64",
                };
                // vcc = a is the result; d = vcc ? a : b.
                self.emit(cmp, vec![Opnd::vcc(), pair(a), pair(b)])?;
                let t = self.vtemp(2);
                for i in 0..2 {
                    self.emit(
                        "v_cndmask_b32_e64",
                        vec![dw(t, i), dw(b, i), dw(a, i), Opnd::vcc()],
                    )?;
                }
                for i in 0..2 {
                    self.emit("v_mov_b32", vec![dw(d, i), dw(t, i)])?;
                }
                Ok(())
            }
            _ => Err(self.unsupported(what.to_string())),
        }
    }

    /// A 64-bit add or subtract through VCC.
    fn add64(&mut self, lo: &str, hi: &str, d: VReg, a: Src, b: Src) -> Result<()> {
        let a0 = self.val(a, 0)?;
        let b0 = self.val(b, 0)?;
        let a1 = self.val(a, 1)?;
        let b1 = self.val(b, 1)?;
        let t = self.vtemp(1);
        self.emit(lo, vec![r(t), Opnd::vcc(), a0, b0])?;
        self.emit(hi, vec![dw(d, 1), Opnd::vcc(), a1, b1, Opnd::vcc()])?;
        self.emit("v_mov_b32", vec![dw(d, 0), r(t)])
    }

    fn dim(&mut self, ops: &[OperandOffset]) -> Result<usize> {
        match ops.get(1).and_then(|&o| const_of(self.m, o)) {
            Some(d @ 0..=2) => Ok(d as usize),
            _ => Err(self.unsupported("a dimension that is not 0, 1 or 2".into())),
        }
    }

    /// `workgroupsize` of dimension `d` (u16 at byte 4 + 2d of the packet).
    fn wgsize(&mut self, d: usize) -> Result<VReg> {
        let dp = self.input(self.dispatch_ptr, "the dispatch pointer")?;
        let s = self.stemp(1);
        let (off, shift) = [(4, 0), (4, 16), (8, 0)][d];
        self.emit("s_load_dword", vec![r(s), pair(dp), Opnd::imm(off)])?;
        let v = self.vtemp(1);
        self.emit(
            "v_bfe_u32",
            vec![r(v), r(s), Opnd::constant(shift), Opnd::constant(16)],
        )?;
        Ok(v)
    }

    /// `gridsize` of dimension `d` (u32 at byte 12 + 4d of the packet).
    fn gridsize(&mut self, d: usize) -> Result<VReg> {
        let dp = self.input(self.dispatch_ptr, "the dispatch pointer")?;
        let s = self.stemp(1);
        self.emit(
            "s_load_dword",
            vec![r(s), pair(dp), Opnd::imm(12 + 4 * d as i64)],
        )?;
        let v = self.vtemp(1);
        self.emit("v_mov_b32", vec![r(v), r(s)])?;
        Ok(v)
    }

    fn lower_dispatch(
        &mut self,
        op: BrigOpcode,
        type_: BrigType,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let wide = match type_ {
            BrigType::U32 => false,
            BrigType::U64 => true,
            _ => return Err(self.unsupported(what.to_string())),
        };
        let d = self.dst(ops[0])?;
        let dim = self.dim(ops)?;
        let v = match op {
            BrigOpcode::WORKITEMID => self.input(self.tid[dim], "the work-item ID")?,
            BrigOpcode::WORKGROUPID => {
                let v = self.vtemp(1);
                let g = self.input(self.wgid[dim], "the work-group ID")?;
                self.emit("v_mov_b32", vec![r(v), r(g)])?;
                v
            }
            BrigOpcode::WORKGROUPSIZE => self.wgsize(dim)?,
            BrigOpcode::GRIDSIZE => self.gridsize(dim)?,
            BrigOpcode::WORKITEMABSID => {
                let size = self.wgsize(dim)?;
                let g = self.input(self.wgid[dim], "the work-group ID")?;
                let base = self.vtemp(1);
                self.emit("v_mul_lo_u32", vec![r(base), r(g), r(size)])?;
                let v = self.vtemp(1);
                let tid = self.input(self.tid[dim], "the work-item ID")?;
                self.emit("v_add_u32_e64", vec![r(v), r(base), r(tid)])?;
                v
            }
            BrigOpcode::CURRENTWORKGROUPSIZE => {
                let size = self.wgsize(dim)?;
                let grid = self.gridsize(dim)?;
                let g = self.input(self.wgid[dim], "the work-group ID")?;
                let base = self.vtemp(1);
                self.emit("v_mul_lo_u32", vec![r(base), r(g), r(size)])?;
                let rest = self.vtemp(1);
                self.emit("v_sub_u32_e64", vec![r(rest), r(grid), r(base)])?;
                let v = self.vtemp(1);
                self.emit("v_min_u32_e64", vec![r(v), r(size), r(rest)])?;
                v
            }
            _ => return Err(self.unsupported(what.to_string())),
        };
        self.emit("v_mov_b32", vec![dw(d, 0), r(v)])?;
        if wide {
            self.emit("v_mov_b32", vec![dw(d, 1), Opnd::constant(0)])?;
        }
        Ok(())
    }

    fn lower_cmp(
        &mut self,
        c: &brig::BrigInstCmp,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        if c.base.type_ != BrigType::B1 {
            return Err(self.unsupported(format!("{what} (cmp to a non-b1 destination)")));
        }
        if c.modifier.raw() & BrigAluModifierMask::FTZ.raw() != 0 {
            return Err(self.unsupported(format!("{what} with ftz")));
        }
        let Some((kind, bits)) = ty(c.source_type) else {
            return Err(self.unsupported(what.to_string()));
        };
        use BrigCompareOperation as C;
        let cmp = c.compare;
        let (opname, suffix) = match (kind, bits) {
            (Kind::F, 32) => {
                let n = match cmp {
                    C::EQ | C::SEQ => "eq",
                    C::NE | C::SNE => "lg",
                    C::LT | C::SLT => "lt",
                    C::LE | C::SLE => "le",
                    C::GT | C::SGT => "gt",
                    C::GE | C::SGE => "ge",
                    C::EQU | C::SEQU => "nlg",
                    C::NEU | C::SNEU => "neq",
                    C::LTU | C::SLTU => "nge",
                    C::LEU | C::SLEU => "ngt",
                    C::GTU | C::SGTU => "nle",
                    C::GEU | C::SGEU => "nlt",
                    C::NUM | C::SNUM => "o",
                    C::NAN | C::SNAN => "u",
                    _ => return Err(self.unsupported(what.to_string())),
                };
                (n, "f32")
            }
            (Kind::U | Kind::S | Kind::B, 32 | 64) => {
                let n = match cmp {
                    C::EQ => "eq",
                    C::NE => "ne",
                    C::LT => "lt",
                    C::LE => "le",
                    C::GT => "gt",
                    C::GE => "ge",
                    _ => return Err(self.unsupported(what.to_string())),
                };
                let sfx = match (kind == Kind::S, bits) {
                    (false, 32) => "u32",
                    (true, 32) => "i32",
                    (false, _) => "u64",
                    (true, _) => "i64",
                };
                (n, sfx)
            }
            _ => return Err(self.unsupported(what.to_string())),
        };
        let d = self.dst(ops[0])?;
        let s = self.srcs(ops, 1)?;
        let (a, b) = if bits == 64 {
            let a = self.val64(s[0])?;
            let b = self.val64(s[1])?;
            (pair(a), pair(b))
        } else {
            (self.val(s[0], 0)?, self.val(s[1], 0)?)
        };
        self.emit(
            &format!("v_cmp_{opname}_{suffix}_e64"),
            vec![Opnd::vcc(), a, b],
        )?;
        self.emit(
            "v_cndmask_b32_e64",
            vec![r(d), Opnd::constant(0), Opnd::constant(1), Opnd::vcc()],
        )
    }

    fn lower_cvt(
        &mut self,
        c: &brig::BrigInstCvt,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let (Some((dk, db)), Some((sk, sb))) = (ty(c.base.type_), ty(c.source_type)) else {
            return Err(self.unsupported(what.to_string()));
        };
        if c.modifier.raw() & BrigAluModifierMask::FTZ.raw() != 0 {
            return Err(self.unsupported(format!("{what} with ftz")));
        }
        let d = self.dst(ops[0])?;
        let s = self.src(ops[1])?;
        let int = |k: Kind| matches!(k, Kind::U | Kind::S);
        match (dk, db, sk, sb) {
            // Integer ↔ integer.
            (dk, 64, sk, 32) if int(dk) && int(sk) => {
                let a = self.val_any(s, 0);
                let hi = if sk == Kind::S {
                    let a = self.val(s, 0)?;
                    let t = self.vtemp(1);
                    self.emit("v_ashrrev_i32_e64", vec![r(t), Opnd::constant(31), a])?;
                    r(t)
                } else {
                    Opnd::constant(0)
                };
                self.emit("v_mov_b32", vec![dw(d, 0), a])?;
                self.emit("v_mov_b32", vec![dw(d, 1), hi])
            }
            (dk, 32, sk, 32 | 64) | (dk, 64, sk, 64) if int(dk) && int(sk) => {
                for i in 0..(db / 32) as u8 {
                    let a = self.val_any(s, i);
                    self.emit("v_mov_b32", vec![dw(d, i), a])?;
                }
                Ok(())
            }
            (dk, 32, Kind::B, 1) if int(dk) => {
                let a = self.val_any(s, 0);
                self.emit("v_mov_b32", vec![r(d), a])
            }
            (Kind::B, 1, sk, 32 | 64) if int(sk) => {
                if sb == 64 {
                    let a = self.val64(s)?;
                    self.emit(
                        "v_cmp_ne_u64_e64",
                        vec![Opnd::vcc(), pair(a), Opnd::constant(0)],
                    )?;
                } else {
                    let a = self.val(s, 0)?;
                    self.emit("v_cmp_ne_u32_e64", vec![Opnd::vcc(), a, Opnd::constant(0)])?;
                }
                self.emit(
                    "v_cndmask_b32_e64",
                    vec![r(d), Opnd::constant(0), Opnd::constant(1), Opnd::vcc()],
                )
            }
            // Integer → f32.
            (Kind::F, 32, sk, 32) if int(sk) => {
                self.check_float_round(c.round, what)?;
                let a = self.val_any(s, 0);
                let mn = if sk == Kind::S {
                    "v_cvt_f32_i32"
                } else {
                    "v_cvt_f32_u32"
                };
                self.emit(mn, vec![r(d), a])
            }
            (Kind::F, 32, sk, 64) if int(sk) => {
                self.check_float_round(c.round, what)?;
                self.cvt_f32_64(d, s, sk == Kind::S)
            }
            // f32 → integer.
            (dk, 32 | 64, Kind::F, 32) if int(dk) => {
                let a = self.val(s, 0)?;
                let t = self.vtemp(1);
                let mn = match c.round {
                    BrigRound::NONE
                    | BrigRound::INTEGER_ZERO
                    | BrigRound::INTEGER_ZERO_SAT
                    | BrigRound::INTEGER_SIGNALING_ZERO
                    | BrigRound::INTEGER_SIGNALING_ZERO_SAT => "v_trunc_f32",
                    BrigRound::INTEGER_NEAR_EVEN
                    | BrigRound::INTEGER_NEAR_EVEN_SAT
                    | BrigRound::INTEGER_SIGNALING_NEAR_EVEN
                    | BrigRound::INTEGER_SIGNALING_NEAR_EVEN_SAT => "v_rndne_f32",
                    BrigRound::INTEGER_PLUS_INFINITY
                    | BrigRound::INTEGER_PLUS_INFINITY_SAT
                    | BrigRound::INTEGER_SIGNALING_PLUS_INFINITY
                    | BrigRound::INTEGER_SIGNALING_PLUS_INFINITY_SAT => "v_ceil_f32",
                    BrigRound::INTEGER_MINUS_INFINITY
                    | BrigRound::INTEGER_MINUS_INFINITY_SAT
                    | BrigRound::INTEGER_SIGNALING_MINUS_INFINITY
                    | BrigRound::INTEGER_SIGNALING_MINUS_INFINITY_SAT => "v_floor_f32",
                    _ => return Err(self.unsupported(format!("{what} with this rounding"))),
                };
                self.emit(mn, vec![r(t), a])?;
                if db == 32 {
                    let mn = if dk == Kind::S {
                        "v_cvt_i32_f32"
                    } else {
                        "v_cvt_u32_f32"
                    };
                    self.emit(mn, vec![r(d), r(t)])
                } else {
                    self.cvt_64_f32(d, t, dk == Kind::S)
                }
            }
            _ => Err(self.unsupported(what.to_string())),
        }
    }

    fn check_float_round(&self, round: BrigRound, what: &str) -> Result<()> {
        if matches!(
            round,
            BrigRound::NONE | BrigRound::FLOAT_DEFAULT | BrigRound::FLOAT_NEAR_EVEN
        ) {
            Ok(())
        } else {
            Err(self.unsupported(format!("{what} with a rounding other than near")))
        }
    }

    /// u64/s64 → f32, rounded to nearest even (LLVM's expansion: normalize
    /// to 32 significant bits with a sticky bit, convert, scale).
    fn cvt_f32_64(&mut self, d: VReg, s: Src, signed: bool) -> Result<()> {
        let x = self.val64(s)?;
        let (mag, sign) = if signed {
            let sign = self.vtemp(1);
            self.emit(
                "v_ashrrev_i32_e64",
                vec![r(sign), Opnd::constant(31), dw(x, 1)],
            )?;
            let t = self.vtemp(2);
            for i in 0..2 {
                self.emit("v_xor_b32_e64", vec![dw(t, i), dw(x, i), r(sign)])?;
            }
            let m = self.vtemp(2);
            self.emit(
                "v_sub_co_u32_e64",
                vec![dw(m, 0), Opnd::vcc(), dw(t, 0), r(sign)],
            )?;
            self.emit(
                "v_subb_co_u32_e64",
                vec![dw(m, 1), Opnd::vcc(), dw(t, 1), r(sign), Opnd::vcc()],
            )?;
            (m, Some(sign))
        } else {
            (x, None)
        };
        let clz = self.vtemp(1);
        self.emit("v_ffbh_u32", vec![r(clz), dw(mag, 1)])?;
        self.emit("v_min_u32_e64", vec![r(clz), r(clz), Opnd::constant(32)])?;
        let n = self.vtemp(2);
        self.emit("v_lshlrev_b64", vec![pair(n), r(clz), pair(mag)])?;
        let sticky = self.vtemp(1);
        self.emit(
            "v_min_u32_e64",
            vec![r(sticky), Opnd::constant(1), dw(n, 0)],
        )?;
        let v = self.vtemp(1);
        self.emit("v_or_b32_e64", vec![r(v), dw(n, 1), r(sticky)])?;
        let f = self.vtemp(1);
        self.emit("v_cvt_f32_u32", vec![r(f), r(v)])?;
        let e = self.vtemp(1);
        self.emit("v_sub_u32_e64", vec![r(e), Opnd::constant(32), r(clz)])?;
        match sign {
            None => self.emit("v_ldexp_f32", vec![r(d), r(f), r(e)]),
            Some(sign) => {
                let g = self.vtemp(1);
                self.emit("v_ldexp_f32", vec![r(g), r(f), r(e)])?;
                let bit = self.vtemp(1);
                self.emit(
                    "v_lshlrev_b32_e64",
                    vec![r(bit), Opnd::constant(31), r(sign)],
                )?;
                self.emit("v_xor_b32_e64", vec![r(d), r(g), r(bit)])
            }
        }
    }

    /// An integral f32 (`t`) → u64/s64 (truncating; out of range undefined).
    fn cvt_64_f32(&mut self, d: VReg, t: VReg, signed: bool) -> Result<()> {
        let (mag, sign) = if signed {
            let sign = self.vtemp(1);
            self.emit("v_ashrrev_i32_e64", vec![r(sign), Opnd::constant(31), r(t)])?;
            let k = self.val(Src::Const(0x7fff_ffff), 0)?;
            let a = self.vtemp(1);
            self.emit("v_and_b32_e64", vec![r(a), r(t), k])?;
            (a, Some(sign))
        } else {
            (t, None)
        };
        // hi = floor(x * 2^-32); lo = fma(hi, -2^32, x).
        let k1 = self.val(Src::Const(0x2f80_0000), 0)?;
        let k2 = self.val(Src::Const(0xcf80_0000), 0)?;
        let h = self.vtemp(1);
        self.emit("v_mul_f32_e64", vec![r(h), r(mag), k1])?;
        self.emit("v_floor_f32", vec![r(h), r(h)])?;
        let l = self.vtemp(1);
        self.emit("v_fma_f32", vec![r(l), r(h), k2, r(mag)])?;
        let u = self.vtemp(2);
        self.emit("v_cvt_u32_f32", vec![dw(u, 1), r(h)])?;
        self.emit("v_cvt_u32_f32", vec![dw(u, 0), r(l)])?;
        match sign {
            None => {
                for i in 0..2 {
                    self.emit("v_mov_b32", vec![dw(d, i), dw(u, i)])?;
                }
                Ok(())
            }
            Some(sign) => {
                let x = self.vtemp(2);
                for i in 0..2 {
                    self.emit("v_xor_b32_e64", vec![dw(x, i), dw(u, i), r(sign)])?;
                }
                let lo = self.vtemp(1);
                self.emit(
                    "v_sub_co_u32_e64",
                    vec![r(lo), Opnd::vcc(), dw(x, 0), r(sign)],
                )?;
                self.emit(
                    "v_subb_co_u32_e64",
                    vec![dw(d, 1), Opnd::vcc(), dw(x, 1), r(sign), Opnd::vcc()],
                )?;
                self.emit("v_mov_b32", vec![dw(d, 0), r(lo)])
            }
        }
    }

    /// The address operand: (kernarg variable offset | base register, offset).
    fn address(&mut self, o: OperandOffset) -> Result<(Option<u32>, Option<VReg>, i64)> {
        let Ok(brig::Operand::Address(a)) = self.m.operand(o) else {
            return Err(self.unsupported("this address operand".into()));
        };
        let offset = a.offset.get() as i64;
        let sym = if a.symbol.get() != 0 {
            match self.kernargs.get(&a.symbol.get()) {
                Some(&k) => Some(k),
                None => {
                    return Err(self.unsupported(
                        "addressing a variable that is not a kernel argument".into(),
                    ));
                }
            }
        } else {
            None
        };
        let reg = if a.reg.get() != 0 {
            match self.m.operand(a.reg) {
                Ok(brig::Operand::Register(reg)) if reg.reg_kind == BrigRegisterKind::DOUBLE => {
                    Some(self.reg(reg.reg_kind, reg.reg_num.get())?)
                }
                _ => return Err(self.unsupported("a 32-bit address register".into())),
            }
        } else {
            None
        };
        Ok((sym, reg, offset))
    }

    fn lower_ld(
        &mut self,
        mem: &brig::BrigInstMem,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let Some((kind, bits)) = ty(mem.base.type_) else {
            return Err(self.unsupported(what.to_string()));
        };
        if !matches!(self.m.operand(ops[0]), Ok(brig::Operand::Register(_))) {
            return Err(self.unsupported(format!("{what} to a vector of registers")));
        }
        let d = self.dst(ops[0])?;
        let (sym, reg, offset) = self.address(ops[1])?;
        match mem.segment {
            BrigSegment::KERNARG => {
                let (Some(k), None) = (sym, reg) else {
                    return Err(self.unsupported(format!("{what} from a register address")));
                };
                let at = i64::from(k) + offset;
                let kp = self.input(self.kernarg_ptr, "the kernarg segment pointer")?;
                match bits {
                    8 | 16 => {
                        let s = self.stemp(1);
                        self.emit("s_load_dword", vec![r(s), pair(kp), Opnd::imm(at & !3)])?;
                        let mn = if kind == Kind::S {
                            "v_bfe_i32"
                        } else {
                            "v_bfe_u32"
                        };
                        self.emit(
                            mn,
                            vec![
                                r(d),
                                r(s),
                                Opnd::constant(((at & 3) * 8) as u32),
                                Opnd::constant(bits),
                            ],
                        )
                    }
                    32 | 64 if at % 4 == 0 => {
                        let w = (bits / 32) as u8;
                        let s = self.stemp(w);
                        let (mn, so) = if w == 1 {
                            ("s_load_dword", r(s))
                        } else {
                            ("s_load_dwordx2", pair(s))
                        };
                        self.emit(mn, vec![so, pair(kp), Opnd::imm(at)])?;
                        for i in 0..w {
                            self.emit("v_mov_b32", vec![dw(d, i), dw(s, i)])?;
                        }
                        Ok(())
                    }
                    _ => Err(self.unsupported(format!("{what} (size or alignment)"))),
                }
            }
            BrigSegment::GLOBAL | BrigSegment::READONLY | BrigSegment::FLAT => {
                let flat = mem.segment == BrigSegment::FLAT;
                let suffix = match (bits, kind) {
                    (8, Kind::S) => "sbyte",
                    (8, _) => "ubyte",
                    (16, Kind::S) => "sshort",
                    (16, _) => "ushort",
                    (32, _) => "dword",
                    (64, _) => "dwordx2",
                    _ => return Err(self.unsupported(what.to_string())),
                };
                let (addr, imm) = self.vmem_address(sym, reg, offset, flat, what)?;
                let dst = if bits == 64 { pair(d) } else { r(d) };
                self.emit_vmem(&format!("load_{suffix}"), flat, vec![dst, pair(addr)], imm)
            }
            _ => Err(self.unsupported(what.to_string())),
        }
    }

    /// A VMEM address: a 64-bit VGPR pair and an immediate offset in range.
    fn vmem_address(
        &mut self,
        sym: Option<u32>,
        reg: Option<VReg>,
        offset: i64,
        flat: bool,
        what: &str,
    ) -> Result<(VReg, i32)> {
        let (None, Some(base)) = (sym, reg) else {
            return Err(self.unsupported(format!("{what} without a 64-bit address register")));
        };
        let fits = if flat {
            (0..=4095).contains(&offset)
        } else {
            (-4096..=4095).contains(&offset)
        };
        if fits {
            return Ok((base, offset as i32));
        }
        let a = self.vtemp(2);
        self.add64(
            "v_add_co_u32_e64",
            "v_addc_co_u32_e64",
            a,
            Src::Reg(base),
            Src::Const(offset as u64),
        )?;
        Ok((a, 0))
    }

    fn lower_st(
        &mut self,
        mem: &brig::BrigInstMem,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let Some((_, bits)) = ty(mem.base.type_) else {
            return Err(self.unsupported(what.to_string()));
        };
        if !matches!(mem.segment, BrigSegment::GLOBAL | BrigSegment::FLAT) {
            return Err(self.unsupported(what.to_string()));
        }
        let flat = mem.segment == BrigSegment::FLAT;
        let data = self.data_reg(ops[0], bits, what)?;
        let suffix = match bits {
            8 => "byte",
            16 => "short",
            32 => "dword",
            64 => "dwordx2",
            _ => return Err(self.unsupported(what.to_string())),
        };
        let (sym, reg, offset) = self.address(ops[1])?;
        let (addr, imm) = self.vmem_address(sym, reg, offset, flat, what)?;
        let dv = if bits == 64 { pair(data) } else { r(data) };
        self.emit_vmem(&format!("store_{suffix}"), flat, vec![pair(addr), dv], imm)
    }

    /// Emits `flat_<op>`, or `global_<op>` with `off` for the scalar base,
    /// with an immediate offset.
    fn emit_vmem(&mut self, op: &str, flat: bool, mut ops: Vec<Opnd>, offset: i32) -> Result<()> {
        let mn = if flat {
            format!("flat_{op}")
        } else {
            ops.push(Opnd::off());
            format!("global_{op}")
        };
        let mut inst = self.minst(&mn, ops)?;
        inst.mods.offset = offset;
        self.emit_inst(inst);
        Ok(())
    }
}
