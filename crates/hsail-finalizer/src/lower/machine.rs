//! Machine functions: HSAIL functions compiled on their own and called
//! for real, for what inlining cannot do (recursion).
//!
//! Design. Inlining stays the rule (it is faster and lets the register
//! allocator see across calls); only the functions on a cycle of a
//! kernel's call graph become machine functions, compiled after the
//! kernel into the same piece of code ([`amdgpu_codegen::link`]), one copy
//! per kernel. The machine-level ABI (stack pointer, return address,
//! caller-saved registers, EXEC) is `amdgpu_codegen::calls`; this module
//! adds the HSAIL side:
//!
//! - **Frames.** A machine function's frame (private memory from the
//!   stack pointer `SP`) starts with its formal arguments (output ones
//!   first, then input ones, each a whole number of dwords, in
//!   declaration order), then its private and spill variables and those
//!   of the functions inlined into it (so every activation has its own,
//!   as PRM 4.3.3's recursive `&fib` needs), then the back end's slots.
//!   Private variables of a frame are addressed `SP + offset`; their
//!   segment addresses are offsets in the work-item's private memory like
//!   any other, so `lda_private` of one works in callees.
//! - **Arguments.** A call stores the actual input arguments (whose arg
//!   variables live in VGPRs, see [`super::call`]) into the callee's
//!   frame, which starts where the caller's ends, and loads the actual
//!   output arguments back after the call; the callee loads its input
//!   formals on entry and stores its output formals when it returns.
//!   Pass by value, as the PRM's arg segment semantics ask (10.2).
//! - **Kernel values.** Work-item and work-group IDs, the kernarg and
//!   dispatch pointers arrive in the kernel's registers only: a kernel
//!   with machine functions stores them in a context area of its private
//!   memory ([`CONTEXT_SIZE`] bytes after its private variables) and
//!   machine functions load them on entry. With DETECT exceptions
//!   enabled the area has one more word, the wave's DETECT flags, stored
//!   around every call and return ([`Cx::detect_slot`]).
//! - **Stack size.** The depth of a recursion is unknown: the kernel's
//!   private segment is its own frame plus [`crate::Options::stack_size`]
//!   bytes, its metadata says `uses_dynamic_stack`, and a callee whose
//!   frame would pass the end traps (`s_trap`
//!   `amdgpu_codegen::calls::STACK_OVERFLOW_TRAP`) instead of corrupting
//!   memory.

use std::collections::HashSet;

use amdgpu_codegen::{Compiled, Opnd, RegClass, Terminator, VReg, calls};
use brig::{BrigSegment, CodeOffset};
use hsail::validate::CodeBlock;

use super::call::{PENDING, RetTo, brig_err, reachable};
use super::{Cx, KernelJob, cfg, dw, memory};
use crate::{Error, Result};

/// Bytes of the context area: the kernarg pointer, dispatch pointer and
/// dispatch ID (8 bytes each), then the work-group IDs and the work-item
/// IDs (4 bytes each per dimension).
pub(super) const CONTEXT_SIZE: u32 = 48;

/// The context area's fields: (byte offset, dwords, class).
const FIELDS: [(u32, u8, RegClass); 9] = [
    (0, 2, RegClass::Sgpr),
    (8, 2, RegClass::Sgpr),
    (16, 2, RegClass::Sgpr),
    (24, 1, RegClass::Sgpr),
    (28, 1, RegClass::Sgpr),
    (32, 1, RegClass::Sgpr),
    (36, 1, RegClass::Vgpr),
    (40, 1, RegClass::Vgpr),
    (44, 1, RegClass::Vgpr),
];

/// One formal argument in a machine function's frame.
#[derive(Debug, Clone, Copy)]
struct FrameArg {
    /// The formal's directive.
    formal: u32,
    /// Byte offset from the frame's start.
    offset: u32,
    /// Dwords.
    dwords: u32,
}

/// Compiles the kernel lowered in `cx` and, when it calls machine
/// functions, those too, linked after it. With machine functions or
/// `alloca`, the kernel's private segment has the stack after its frame.
pub(super) fn compile_unit(job: &KernelJob<'_>, cx: Cx<'_>) -> Result<Compiled> {
    let name = cx.name.clone();
    let codegen_err = |source| Error::Codegen {
        kernel: name.clone(),
        source,
    };
    let machine = cx.machine.clone();
    let present = cx.context_present();
    let detect = cx.detect.map_or(0, |d| d.mask);
    let (group, context) = (cx.group.clone(), cx.context);
    let stack = !machine.is_empty() || cx.alloca_area.is_some();
    let mut kernel = amdgpu_codegen::compile(cx.f, job.t).map_err(codegen_err)?;
    if !stack {
        return Ok(kernel);
    }
    // The stack (alloca areas, callee frames) after the kernel's frame.
    let limit = kernel
        .private_size
        .checked_add(job.opts.stack_size)
        .ok_or_else(|| Error::Target {
            message: format!("stack size {} is too large", job.opts.stack_size),
        })?;
    if machine.is_empty() {
        kernel.private_size = limit;
        return Ok(kernel);
    }
    let mut units = vec![kernel];
    for (k, &cb) in machine.iter().enumerate() {
        let mut fx = Cx::new(
            job,
            &format!("{name}.{}", cb.name.trim_start_matches('&')),
            cb,
            machine.clone(),
        );
        fx.group = group.clone();
        fx.context = context;
        fx.f.callee = Some(limit);
        fx.f.unit = k as u32 + 1;
        fx.detect_callee(detect)?;
        fx.lower_function(job, cb, present)?;
        units.push(amdgpu_codegen::compile(fx.f, job.t).map_err(codegen_err)?);
    }
    let mut out = amdgpu_codegen::link(units);
    out.private_size = limit;
    Ok(out)
}

/// Whether any of `cbs` has an instruction whose opcode passes `pick`.
pub(super) fn has_inst(
    m: &brig::BrigModule<'_>,
    cbs: &[&CodeBlock],
    pick: impl Fn(brig::BrigOpcode) -> bool,
) -> Result<bool> {
    for &at in cbs.iter().flat_map(|cb| &cb.instructions) {
        let code = m.code(at).map_err(brig_err)?;
        if code.inst().is_some_and(|i| pick(i.opcode)) {
            return Ok(true);
        }
    }
    Ok(false)
}

impl<'a> Cx<'a> {
    /// The index of `cb` among the machine functions, if it is one.
    pub(super) fn machine_index(&self, cb: &CodeBlock) -> Option<usize> {
        self.machine
            .iter()
            .position(|m| m.directive == cb.directive)
    }

    /// The register a context field lives in.
    fn context_field(&mut self, i: usize) -> Option<&mut Option<VReg>> {
        Some(match i {
            0 => &mut self.kernarg_ptr,
            1 => &mut self.dispatch_ptr,
            2 => &mut self.dispatch_id,
            3..=5 => &mut self.wgid[i - 3],
            6..=8 => &mut self.tid[i - 6],
            _ => return None,
        })
    }

    /// The registers of the context fields (in [`FIELDS`] order).
    fn context_regs(&self) -> [Option<VReg>; 9] {
        let [w0, w1, w2] = self.wgid;
        let [t0, t1, t2] = self.tid;
        [
            self.kernarg_ptr,
            self.dispatch_ptr,
            self.dispatch_id,
            w0,
            w1,
            w2,
            t0,
            t1,
            t2,
        ]
    }

    /// Which context fields the kernel has.
    fn context_present(&self) -> [bool; 9] {
        self.context_regs().map(|v| v.is_some())
    }

    /// A VGPR holding the context area's private offset, made by an
    /// instruction appended to the prologue.
    fn context_address(&mut self) -> Result<Option<VReg>> {
        let Some(at) = self.context else {
            return Ok(None);
        };
        let a = self.vtemp(1);
        let mov = self.minst("v_mov_b32", vec![dw(a, 0), Opnd::constant(at)])?;
        self.f.prologue.push(mov);
        Ok(Some(a))
    }

    /// A kernel with machine functions: stores the context values in the
    /// prologue.
    pub(super) fn store_context(&mut self) -> Result<()> {
        if self.machine.is_empty() {
            return Ok(());
        }
        let Some(a) = self.context_address()? else {
            return Ok(());
        };
        for (&(off, dwords, class), v) in FIELDS.iter().zip(self.context_regs()) {
            let Some(v) = v else { continue };
            for d in 0..dwords {
                let data = match class {
                    RegClass::Vgpr => v,
                    RegClass::Sgpr => {
                        let t = self.vtemp(1);
                        let mov = self.minst("v_mov_b32", vec![dw(t, 0), dw(v, d)])?;
                        self.f.prologue.push(mov);
                        t
                    }
                };
                let d0 = if class == RegClass::Vgpr { d } else { 0 };
                let mut st = self.minst(
                    "scratch_store_dword",
                    vec![dw(a, 0), dw(data, d0), Opnd::off()],
                )?;
                st.mods.offset = (off + 4 * u32::from(d)) as i32;
                self.f.prologue.push(st);
            }
        }
        Ok(())
    }

    /// A machine function: loads the context values the kernel has and
    /// the function uses (`uses`: `dispatch::scan_uses` of its code; the
    /// IDs only if `ids`, it has dispatch queries) in the prologue, all
    /// loads first.
    fn load_context(&mut self, present: [bool; 9], uses: &super::Uses, ids: bool) -> Result<()> {
        let wanted = [
            uses.kernarg_ptr,
            uses.dispatch_ptr,
            uses.dispatch_id,
            ids,
            ids && uses.workgroup_id_dims >= 2,
            ids && uses.workgroup_id_dims >= 3,
            ids,
            ids && uses.workitem_id_dims >= 2,
            ids && uses.workitem_id_dims >= 3,
        ];
        let wanted: [bool; 9] = std::array::from_fn(|i| present[i] && wanted[i]);
        if !wanted.contains(&true) {
            return Ok(());
        }
        let Some(a) = self.context_address()? else {
            return Ok(());
        };
        let mut reads = Vec::new();
        for (i, &(off, dwords, class)) in FIELDS.iter().enumerate() {
            if !wanted[i] {
                continue;
            }
            let v = self.f.new_vreg(class, dwords);
            for d in 0..dwords {
                let t = match class {
                    RegClass::Vgpr => v,
                    RegClass::Sgpr => self.vtemp(1),
                };
                let d0 = if class == RegClass::Vgpr { d } else { 0 };
                let mut ld =
                    self.minst("scratch_load_dword", vec![dw(t, d0), dw(a, 0), Opnd::off()])?;
                ld.mods.offset = (off + 4 * u32::from(d)) as i32;
                self.f.prologue.push(ld);
                if class == RegClass::Sgpr {
                    reads.push(self.minst("v_readfirstlane_b32", vec![dw(v, d), dw(t, 0)])?);
                }
            }
            if let Some(slot) = self.context_field(i) {
                *slot = Some(v);
            }
        }
        self.f.prologue.extend(reads);
        Ok(())
    }

    /// Bytes of arg variable `var`.
    pub(super) fn arg_bytes(&self, var: u32) -> Result<u32> {
        let v: &brig::BrigDirectiveVariable =
            self.m.code_as(CodeOffset::new(var)).map_err(brig_err)?;
        let elem = v.type_.byte_size().unwrap_or(0);
        let count = if v.type_.is_array() {
            v.dim.get() as u32
        } else {
            1
        };
        match elem.checked_mul(count) {
            Some(n) if n > 0 => Ok(n),
            _ => Err(self.unsupported("an arg variable of unknown size".into())),
        }
    }

    /// The formal arguments of machine function `cb` in its frame: output
    /// ones, then input ones.
    fn frame_args(&self, cb: &CodeBlock) -> Result<(Vec<FrameArg>, u32)> {
        let mut out = Vec::new();
        let mut offset = 0u32;
        for f in cb.out_args.iter().chain(&cb.in_args) {
            let dwords = self.arg_bytes(f.get())?.div_ceil(4);
            out.push(FrameArg {
                formal: f.get(),
                offset,
                dwords,
            });
            offset += 4 * dwords;
        }
        if offset > 4096 {
            return Err(self.unsupported(format!(
                "a call to `{}` with more than 4 KiB of arguments",
                cb.name
            )));
        }
        Ok((out, offset))
    }

    /// Moves `dwords` dwords of `regs` to (`store`) or from the stack at
    /// `base + offset` (`base` an SGPR operand).
    fn stack_move(&mut self, regs: &[VReg], arg: FrameArg, base: Opnd, store: bool) -> Result<()> {
        for (d, &v) in regs.iter().take(arg.dwords as usize).enumerate() {
            let ops = if store {
                vec![Opnd::off(), dw(v, 0), base]
            } else {
                vec![dw(v, 0), Opnd::off(), base]
            };
            let mn = if store {
                "scratch_store_dword"
            } else {
                "scratch_load_dword"
            };
            let mut i = self.minst(mn, ops)?;
            i.mods.offset = (arg.offset + 4 * d as u32) as i32;
            self.emit_inst(i);
        }
        Ok(())
    }

    /// A block calling machine function `k` (`cb`) with the actual
    /// arguments `outs` and `ins`, ending in a branch to the call's
    /// continuation; returns it.
    pub(super) fn call_machine(
        &mut self,
        k: usize,
        cb: &CodeBlock,
        outs: &[CodeOffset],
        ins: &[CodeOffset],
    ) -> Result<usize> {
        let b = self.f.add_block();
        self.cur = b;
        let (args, _) = self.frame_args(cb)?;
        let (out_args, in_args) = args.split_at(cb.out_args.len().min(args.len()));
        let frame = |cx: &mut Self| -> Result<Opnd> {
            let base = cx.stemp(1);
            let i = calls::callee_frame(cx.t, dw(base, 0)).map_err(|e| cx.codegen_error(e))?;
            cx.emit_inst(i);
            if let Some(area) = cx.alloca_area {
                // After the alloca area and the word of `calls::expand`.
                cx.emit("s_add_u32", vec![dw(base, 0), dw(base, 0), dw(area, 0)])?;
                cx.emit(
                    "s_add_u32",
                    vec![dw(base, 0), dw(base, 0), Opnd::constant(4)],
                )?;
            }
            Ok(dw(base, 0))
        };
        let base = frame(self)?;
        for (&arg, a) in in_args.iter().zip(ins) {
            let regs = self.arg_var(a.get())?;
            self.stack_move(&regs, arg, base, true)?;
        }
        let mut call = calls::call(self.t, k as u32 + 1).map_err(|e| self.codegen_error(e))?;
        // A frame with an alloca area: the callee's frame starts after it.
        call.ops.extend(self.alloca_area.map(|a| dw(a, 0)));
        for i in self.detect_slot(true)? {
            self.emit_inst(i);
        }
        self.emit_inst(call);
        for i in self.detect_slot(false)? {
            self.emit_inst(i);
        }
        let base = frame(self)?;
        for (&arg, a) in out_args.iter().zip(outs) {
            let regs = self.arg_var(a.get())?;
            self.stack_move(&regs, arg, base, false)?;
        }
        self.f.blocks[b].term = Terminator::Br(PENDING);
        Ok(b)
    }

    /// Lowers machine function `cb` into `self.f` (a callee): its frame
    /// layout, the context values, argument loads on entry and stores on
    /// return.
    fn lower_function(
        &mut self,
        job: &KernelJob<'a>,
        cb: &'a CodeBlock,
        present: [bool; 9],
    ) -> Result<()> {
        let stop: Vec<u32> = self.machine.iter().map(|b| b.directive.get()).collect();
        let reach = reachable(job.m, job.loc, &job.info.code_blocks, cb, &stop)?;
        let mut all = cb.clone();
        all.locals = reach.iter().flat_map(|b| b.locals.clone()).collect();
        let locals: HashSet<u32> = all.locals.iter().map(|s| s.offset.get()).collect();
        let (private, size) = memory::segment_layout(
            job.m,
            &job.info.symbols,
            &all,
            job.loc,
            &[BrigSegment::PRIVATE, BrigSegment::SPILL],
        )?;
        let (args, arg_size) = self.frame_args(cb)?;
        for (var, off) in private {
            if locals.contains(&var) {
                self.private.insert(var, off + arg_size);
                self.frame_vars.insert(var);
            } else {
                self.private.insert(var, off);
            }
        }
        self.f.private_size = (arg_size + size).next_multiple_of(4);
        let uses = super::dispatch::scan_uses(job.m, &reach)?;
        // Dispatch queries read the IDs.
        let ids = has_inst(job.m, &reach, |o| super::dispatch::QUERIES.contains(&o))?;
        self.load_context(present, &uses, ids)?;

        if has_inst(job.m, &reach, |o| o == brig::BrigOpcode::ALLOCA)? {
            self.start_alloca_area()?;
        }
        let sp = Opnd::sgpr(calls::SP, 1);
        let entry = self.f.add_block();
        self.cur = entry;
        let n_out = cb.out_args.len();
        for (i, &arg) in args.iter().enumerate() {
            let regs = self.arg_var(arg.formal)?;
            if i >= n_out {
                self.stack_move(&regs, arg, sp, false)?;
            }
        }
        let body = self.lower_body(cb, RetTo::Caller)?;
        self.f.blocks[entry].term = Terminator::Br(body);
        let ret = self.f.add_block();
        self.cur = ret;
        for &arg in &args[..n_out.min(args.len())] {
            let regs = self.arg_var(arg.formal)?;
            self.stack_move(&regs, arg, sp, true)?;
        }
        for i in self.detect_slot(true)? {
            self.emit_inst(i);
        }
        for b in &mut self.f.blocks {
            b.term = cfg::map_targets(b.term, |t| if t == PENDING { ret } else { t });
        }
        cfg::layout_rpo(&mut self.f);
        Ok(())
    }

    /// The private address base of variable `sym` (with `base`, the
    /// address register, if any): `SP` added for a frame variable.
    pub(super) fn frame_relative(&mut self, sym: u32, base: Option<VReg>) -> Result<Option<VReg>> {
        if !self.frame_vars.contains(&sym) {
            return Ok(base);
        }
        let v = self.vtemp(1);
        let sp = Opnd::sgpr(calls::SP, 1);
        match base {
            None => self.emit("v_mov_b32", vec![dw(v, 0), sp])?,
            Some(b) => self.emit("v_add_u32_e64", vec![dw(v, 0), sp, dw(b, 0)])?,
        }
        Ok(Some(v))
    }
}
