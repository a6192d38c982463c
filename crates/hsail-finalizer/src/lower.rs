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
    BrigAluModifierMask, BrigDirectiveVariable, BrigModule, BrigOpcode, BrigRegisterKind,
    BrigRound, BrigSegment, BrigType, Code, OperandOffset,
};
use hsail::validate::CodeBlock;

use crate::{Error, Locator, Options, Result};

mod bits;
mod call;
mod cfg;
mod compare;
mod convert;
mod crosslane;
mod detect;
mod dispatch;
mod divide;
mod fbarrier;
mod float;
mod globals;
mod int;
mod ldst;
mod machine;
mod memory;
mod mode;
mod multimedia;
mod packed;
mod packed64;
mod packed_float;
mod private;
mod quad;
mod signal;

pub(crate) use globals::{ModuleData, module_data};

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
    pub dispatch_id: bool,
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
    /// The kernel's default float MODE (rounding and denormals).
    pub mode: mode::FpMode,
    pub compiled: Compiled,
    /// Whether the kernel makes real calls (a call stack of unknown depth).
    pub dynamic_stack: bool,
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
    /// Private and spill variable directive → private segment address.
    private: HashMap<u32, u32>,
    /// Global and readonly variable directive → offset in `.data`.
    globals: HashMap<u32, u32>,
    /// The module is `$small`: global, readonly, kernarg and flat
    /// addresses are 32-bit ([`ldst`]'s `small_addr`).
    small: bool,
    kernarg_ptr: Option<VReg>,
    dispatch_ptr: Option<VReg>,
    dispatch_id: Option<VReg>,
    wgid: [Option<VReg>; 3],
    tid: [Option<VReg>; 3],
    cur: usize,
    at: u32,
    name: String,
    /// The kernel's default float MODE.
    mode: mode::FpMode,
    /// Every kernel and function code block of the module (callees).
    code_blocks: &'a [CodeBlock],
    /// Arg-segment variables of the code block being lowered (actual
    /// arguments of its arg blocks, its formal arguments) → one 1-dword
    /// VGPR per dword of the variable.
    args: HashMap<u32, Vec<VReg>>,
    /// Directives of the functions being inlined, outermost first.
    inlining: Vec<u32>,
    /// Whether calls or `sbr` added blocks (the blocks are then laid out
    /// in reverse post-order at the end).
    restructured: bool,
    /// The functions compiled as machine functions of the kernel's code
    /// (recursive ones): function `k` is function `k + 1` of the compile
    /// unit (see [`call`]).
    machine: Vec<&'a CodeBlock>,
    /// Private variables placed in the stack frame (addressed from the
    /// stack pointer): those of a machine function.
    frame_vars: std::collections::HashSet<u32>,
    /// Private offset of the ABI values a kernel hands its machine
    /// functions ([`call`]), when it makes calls.
    context: Option<u32>,
    /// The SGPR holding the bytes `alloca` took in this function's frame
    /// (see lower/private.rs), when it has `alloca`s.
    alloca_area: Option<VReg>,
    /// Bytes of call stack per work-item ([`crate::Options::stack_size`]).
    stack_size: u32,
    /// The DETECT field and enabled exceptions, when the kernel enables
    /// any ([`detect`]).
    detect: Option<detect::Detect>,
}

/// What lowering one kernel needs from the module and the options.
pub(crate) struct KernelJob<'a> {
    pub m: &'a BrigModule<'a>,
    pub info: &'a hsail::validate::ModuleInfo,
    pub data: &'a ModuleData,
    pub loc: &'a Locator<'a>,
    pub opts: &'a Options,
    pub t: Target,
}

/// Lowers and compiles kernel `cb`: without scratch inputs first, again
/// with them when the back end must spill registers.
pub(crate) fn lower_kernel(job: &KernelJob<'_>, cb: &CodeBlock) -> Result<LoweredKernel> {
    match lower_kernel_with(job, cb, false) {
        Err(Error::Codegen {
            source: amdgpu_codegen::Error::NeedsScratch { .. },
            ..
        }) => lower_kernel_with(job, cb, true),
        other => other,
    }
}

/// [`lower_kernel`], with the scratch inputs enabled when the kernel has
/// private variables or `spill_space` is set.
fn lower_kernel_with(
    job: &KernelJob<'_>,
    cb: &CodeBlock,
    spill_space: bool,
) -> Result<LoweredKernel> {
    let KernelJob {
        m,
        info,
        loc,
        data: _,
        opts,
        t,
    } = *job;
    let name = cb.name.trim_start_matches('&').to_string();
    let brig_err = |e: brig::BrigError| Error::Invalid(e.to_string());
    let (module_syms, code_blocks) = (&info.symbols, &info.code_blocks);

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
    // The kernel and the functions it inlines: their private variables
    // are laid out together; group variables of every function it
    // reaches too (machine functions included, see `call`).
    let machine = call::machine_functions(m, loc, code_blocks, cb)?;
    let stop: Vec<u32> = machine.iter().map(|b| b.directive.get()).collect();
    let full = call::reachable(m, loc, code_blocks, cb, &[])?;
    let reach = call::reachable(m, loc, code_blocks, cb, &stop)?;
    for b in &full {
        cfg::check_reducible(m, loc, b)?;
    }
    let with_locals = |cbs: &[&CodeBlock]| {
        let mut all = cb.clone();
        all.locals = cbs.iter().flat_map(|b| b.locals.clone()).collect();
        all
    };
    let every = with_locals(&full);
    let (mut group, vars_size) =
        memory::segment_layout(m, module_syms, &every, loc, &[BrigSegment::GROUP])?;
    let group_size = fbarrier::layout(module_syms, &every, loc, &mut group, vars_size)?;
    let all = with_locals(&reach);
    let (private, mut private_size) = memory::segment_layout(
        m,
        module_syms,
        &all,
        loc,
        &[BrigSegment::PRIVATE, BrigSegment::SPILL],
    )?;

    // Pre-scan: which ABI inputs the kernel reads.
    let uses = dispatch::scan_uses(m, &full)?;
    // The ABI values for machine functions, after the private variables.
    // With DETECT, the context area ends with the flags' slot.
    let detect_mask = detect::enabled(m, &full) | opts.detect_exceptions & 0x1f;
    let context = (!machine.is_empty()).then(|| {
        let at = private_size.next_multiple_of(8);
        private_size = at + machine::CONTEXT_SIZE + if detect_mask != 0 { 4 } else { 0 };
        at
    });

    // The wave layout those enables give.
    let mut kd = KernelDirectives::new();
    let has_alloca = machine::has_inst(m, &reach, |o| o == BrigOpcode::ALLOCA)?;
    let scratch_on = private_size > 0 || spill_space || !machine.is_empty() || has_alloca;
    let pre = [
        ("user_sgpr_dispatch_ptr", u64::from(uses.dispatch_ptr)),
        ("user_sgpr_kernarg_segment_ptr", u64::from(uses.kernarg_ptr)),
        ("user_sgpr_dispatch_id", u64::from(uses.dispatch_id)),
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
        ("user_sgpr_flat_scratch_init", u64::from(scratch_on)),
        (
            "system_sgpr_private_segment_wavefront_offset",
            u64::from(scratch_on),
        ),
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

    let mut cx = Cx::new(job, &name, cb, machine);
    cx.kernargs = kernargs;
    cx.group = group;
    cx.private = private;
    cx.context = context;
    cx.prologue(&layout)?;
    cx.scratch_setup(&layout, private_size, scratch_on)?;
    cx.store_context()?;
    cx.detect_init(detect_mask)?;

    if has_alloca {
        cx.start_alloca_area()?;
    }
    cx.lower_body(cb, call::RetTo::Exit)?;
    if cx.restructured {
        cfg::layout_rpo(&mut cx.f);
    }

    let fp_mode = cx.mode;
    let dynamic_stack = !cx.machine.is_empty() || cx.alloca_area.is_some();
    let compiled = machine::compile_unit(job, cx)?;
    Ok(LoweredKernel {
        name,
        args,
        kernarg_size,
        kernarg_align: max_align,
        uses,
        group_size,
        mode: fp_mode,
        compiled,
        dynamic_stack,
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

impl<'a> Cx<'a> {
    /// A context for lowering code block `cb` (a kernel, or a machine
    /// function) into a new machine function `name`, with empty variable
    /// maps and no ABI inputs.
    fn new(job: &KernelJob<'a>, name: &str, cb: &CodeBlock, machine: Vec<&'a CodeBlock>) -> Self {
        Cx {
            m: job.m,
            loc: job.loc,
            t: job.t,
            f: Function::new(name),
            regs: HashMap::new(),
            kernargs: HashMap::new(),
            group: HashMap::new(),
            private: HashMap::new(),
            globals: job.data.offsets.clone(),
            small: job.info.machine_model == brig::BrigMachineModel::SMALL,
            kernarg_ptr: None,
            dispatch_ptr: None,
            dispatch_id: None,
            wgid: [None; 3],
            tid: [None; 3],
            cur: 0,
            at: cb.directive.get(),
            name: name.to_string(),
            mode: mode::FpMode::kernel_default(job.m),
            code_blocks: &job.info.code_blocks,
            args: HashMap::new(),
            inlining: Vec::new(),
            restructured: false,
            machine,
            frame_vars: std::collections::HashSet::new(),
            context: None,
            alloca_area: None,
            stack_size: job.opts.stack_size,
            detect: None,
        }
    }

    /// A back-end error while lowering (a bug of the front end).
    fn codegen_error(&self, source: amdgpu_codegen::Error) -> Error {
        Error::Codegen {
            kernel: self.name.clone(),
            source,
        }
    }

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
                SgprContent::KernargSegmentPtr
                | SgprContent::DispatchPtr
                | SgprContent::DispatchId => {
                    let v = self.stemp(2);
                    pro.push(self.minst("s_mov_b64", vec![pair(v), Opnd::sgpr(first, 2)])?);
                    match slot.content {
                        SgprContent::DispatchPtr => self.dispatch_ptr = Some(v),
                        SgprContent::DispatchId => self.dispatch_id = Some(v),
                        _ => self.kernarg_ptr = Some(v),
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

    /// Lowers the blocks of a kernel or (inlined) function code block,
    /// appending them to the function; returns the index of its entry
    /// block. `ret` (and falling off the end) finishes the lane for a
    /// kernel, and goes to the call's continuation for a function.
    fn lower_body(&mut self, cb: &'a CodeBlock, ret: call::RetTo) -> Result<usize> {
        let brig_err = |e: brig::BrigError| Error::Invalid(e.to_string());
        self.check_break_policy(cb)?;
        let base = self.f.blocks.len();
        let mut label_block = HashMap::new();
        for (i, b) in cb.blocks.iter().enumerate() {
            self.f.add_block();
            for l in &b.labels {
                label_block.insert(l.get(), base + i);
            }
        }
        if cb.blocks.is_empty() {
            self.f.add_block();
            self.f.blocks[base].term = ret.terminator();
        }
        // Labels after the last instruction: branching there returns.
        let trailing: Vec<u32> = cb
            .labels
            .values()
            .map(|l| l.get())
            .filter(|l| !label_block.contains_key(l))
            .collect();
        if cfg::branches_to_any(self.m, cb, &trailing) {
            let end = self.ret_block(ret);
            label_block.extend(trailing.into_iter().map(|l| (l, end)));
        }
        for (bi, b) in cb.blocks.iter().enumerate() {
            self.cur = base + bi;
            let next = (bi + 1 < cb.blocks.len()).then_some(base + bi + 1);
            let mut term = next.map_or(ret.terminator(), Terminator::Br);
            for &at in &cb.instructions[b.first..b.end] {
                self.at = at.get();
                let code = self.m.code(at).map_err(brig_err)?;
                let Some(inst) = code.inst() else { continue };
                let ops = self.m.operand_list(inst.operands).map_err(brig_err)?;
                match (inst.opcode, &code) {
                    (BrigOpcode::RET, _) => term = ret.terminator(),
                    (BrigOpcode::BR, _) => {
                        term = Terminator::Br(self.label_target(&ops, 0, &label_block)?);
                    }
                    (BrigOpcode::CBR, _) => {
                        let then = self.label_target(&ops, 1, &label_block)?;
                        let cond = match self.src(ops[0])? {
                            Src::Reg(v) => v,
                            Src::Const(c) => {
                                let v = self.vtemp(1);
                                self.emit("v_mov_b32", vec![r(v), Opnd::constant(c as u32)])?;
                                v
                            }
                        };
                        let otherwise = match next {
                            Some(n) => n,
                            None => self.ret_block(ret),
                        };
                        term = Terminator::CondBr {
                            cond,
                            then,
                            otherwise,
                        };
                    }
                    (BrigOpcode::SBR, _) => {
                        term = self.lower_sbr(inst.type_, &ops, &label_block)?
                    }
                    (BrigOpcode::CALL | BrigOpcode::SCALL | BrigOpcode::ICALL, _) => {
                        self.lower_call(inst.opcode, inst.type_, &ops)?;
                    }
                    (_, Code::InstMem(mem)) if mem.segment == BrigSegment::ARG => {
                        self.lower_arg_mem(mem, &ops)?;
                    }
                    _ => self.lower_inst(&code, &ops)?,
                }
            }
            let cur = self.cur;
            self.f.blocks[cur].term = term;
        }
        Ok(base)
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
            BrigRegisterKind::QUAD => 4,
            _ => return Err(self.unsupported("this register kind".into())),
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
        if let Some(v) = self.wide_const(o)? {
            return Ok(Src::Reg(v));
        }
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
        if fbarrier::OPS.contains(&op) {
            return self.lower_fbar(op, ops, &what);
        }
        match code {
            Code::InstBasic(_) | Code::InstMod(_) => {
                let is_float = ty(type_).is_some_and(|(k, _)| k == Kind::F);
                if multimedia::BASIC.contains(&op) {
                    return self.lower_multimedia(op, ops, &what);
                }
                let elem = ty(type_.element_type());
                if type_.is_packed() && elem.is_some_and(|(k, w)| k == Kind::F || w == 64) {
                    return self.lower_packed_float(op, type_, code, ops, &what);
                }
                if let Code::InstMod(md) = code
                    && !is_float
                {
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
                    _ if dispatch::QUERIES.contains(&op) => {
                        self.lower_dispatch(op, type_, ops, &what)
                    }
                    BrigOpcode::NOP => Ok(()),
                    BrigOpcode::MOV if type_ == BrigType::B128 => self.lower_mov_b128(ops, &what),
                    BrigOpcode::CLEARDETECTEXCEPT
                    | BrigOpcode::SETDETECTEXCEPT
                    | BrigOpcode::GETDETECTEXCEPT => self.lower_detect(op, ops, &what),
                    _ if type_.is_packed() => self.lower_packed(code, ops, &what),
                    _ if is_float => {
                        let mods = match code {
                            Code::InstMod(md) => mode::FloatMods::from_brig(
                                md.round,
                                md.modifier.raw() & BrigAluModifierMask::FTZ.raw() != 0,
                            )
                            .ok_or_else(|| {
                                self.unsupported(format!("{what} with this rounding"))
                            })?,
                            _ => mode::FloatMods::NONE,
                        };
                        self.lower_float(op, type_, ops, &what, mods)
                    }
                    _ => self.lower_alu(op, type_, ops, &what),
                }
            }
            Code::InstCmp(c)
                if c.source_type.is_packed()
                    && ty(c.source_type.element_type()).is_some_and(|(_, w)| w == 64) =>
            {
                self.lower_cmp_packed64(c, ops, &what)
            }
            Code::InstCmp(c) => self.lower_cmp(c, ops, &what),
            Code::InstSourceType(c) if op == BrigOpcode::CLASS => self.lower_class(c, ops, &what),
            Code::InstSourceType(st) if multimedia::SOURCE_TYPE.contains(&op) => {
                self.lower_multimedia_st(op, st.source_type, ops, &what)
            }
            Code::InstSourceType(st) => self.lower_source_type(st, ops, &what),
            Code::InstCvt(c) => self.lower_cvt(c, ops, &what),
            Code::InstMem(mem) => match op {
                BrigOpcode::LD => self.lower_ldst(mem, ops, false, &what),
                BrigOpcode::ST => self.lower_ldst(mem, ops, true, &what),
                BrigOpcode::ALLOCA => self.lower_alloca(mem, ops, &what),
                _ => Err(self.unsupported(what)),
            },
            Code::InstAddr(a) if op == BrigOpcode::LDA => self.lower_lda(a, ops, &what),
            Code::InstBr(_) if op == BrigOpcode::BARRIER => self.lower_barrier(),
            Code::InstBr(_) if op == BrigOpcode::WAVEBARRIER => Ok(()),
            Code::InstAtomic(a) => self.lower_atomic(a, ops, &what),
            Code::InstQueue(q) => self.lower_queue(q, ops, &what),
            Code::InstSignal(s) => self.lower_signal(s, ops, &what),
            Code::InstSegCvt(c) => self.lower_segcvt(c, ops, &what),
            Code::InstSeg(i) if op == BrigOpcode::NULLPTR => self.lower_nullptr(i, ops),
            Code::InstMemFence(f) => self.lower_memfence(f, &what),
            Code::InstLane(_) if op == BrigOpcode::ACTIVELANEPERMUTE => {
                self.lower_permute(type_, ops, &what)
            }
            Code::InstLane(_) => self.lower_crosslane(op, ops, &what),
            _ => Err(self.unsupported(what)),
        }
    }
}
