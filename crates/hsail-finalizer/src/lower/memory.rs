//! The group segment (LDS layout, `ld`/`st`/`lda` on it, `barrier`),
//! atomics on global, flat and group memory, and `memfence`, with the memory
//! model mapped to the GFX90A/GFX900 sequences of AMDGPUUsage's tables
//! (no threadgroup-split mode):
//!
//! | scope       | release before                                   | acquire after                                           |
//! |-------------|--------------------------------------------------|---------------------------------------------------------|
//! | wavefront   | —                                                | —                                                       |
//! | workgroup   | `s_waitcnt vmcnt(0) lgkmcnt(0)`                  | —  (fences: `s_waitcnt vmcnt(0) lgkmcnt(0)`)            |
//! | agent       | `s_waitcnt vmcnt(0) lgkmcnt(0)`                  | `s_waitcnt vmcnt(0) lgkmcnt(0)`; `buffer_wbinvl1_vol`   |
//! | system      | gfx90a `buffer_wbl2`; `s_waitcnt vmcnt(0) lgkmcnt(0)` | `s_waitcnt …`; gfx90a `buffer_invl2`; `buffer_wbinvl1_vol` |
//!
//! Relaxed atomics are the plain `global_atomic_*`, with `glc` when they
//! return the old value.

use std::collections::HashMap;

use amdgpu_codegen::emit::WAIT_ALL;
use amdgpu_codegen::{Opnd, Target, VReg};
use brig::{
    BrigAtomicOperation, BrigDirectiveVariable, BrigInstAddr, BrigInstAtomic, BrigInstMem,
    BrigInstMemFence, BrigMemoryOrder, BrigMemoryScope, BrigModule, BrigOpcode, BrigRegisterKind,
    BrigSegment, OperandOffset,
};
use hsail::validate::{CodeBlock, Symbol, SymbolKind};

use super::{Cx, Kind, Src, dw, pair, r, ty};
use crate::{Error, Locator, Result};

/// Lays out the module-scope and kernel-scope `group` variables: directive
/// (and, for module scope, every declaration of it) → LDS byte address,
/// and the total size.
pub(super) fn group_layout(
    m: &BrigModule<'_>,
    module_syms: &[Symbol],
    cb: &CodeBlock,
    loc: &Locator<'_>,
) -> Result<(HashMap<u32, u32>, u32)> {
    let brig_err = |e: brig::BrigError| Error::Invalid(e.to_string());
    let mut map = HashMap::new();
    let mut off = 0u32;
    let vars = module_syms
        .iter()
        .chain(&cb.locals)
        .filter(|s| s.kind == SymbolKind::Variable);
    for s in vars.clone().filter(|s| s.is_definition) {
        let v: &BrigDirectiveVariable = m.code_as(s.offset).map_err(brig_err)?;
        if v.segment != BrigSegment::GROUP {
            continue;
        }
        let Some(size) = v.type_.byte_size() else {
            return Err(loc.unsupported(
                format!("group variable of type {:?}", v.type_),
                s.offset.get(),
            ));
        };
        let count = if v.type_.is_array() {
            v.dim.get() as u32
        } else {
            1
        };
        let align = v.align.bytes().unwrap_or(1).max(size).max(4);
        off = off.next_multiple_of(align);
        map.insert(s.offset.get(), off);
        off += size * count;
    }
    for s in vars.filter(|s| !s.is_definition) {
        let v: &BrigDirectiveVariable = m.code_as(s.offset).map_err(brig_err)?;
        if v.segment != BrigSegment::GROUP {
            continue;
        }
        match s.definition.and_then(|d| map.get(&d.get()).copied()) {
            Some(a) => {
                map.insert(s.offset.get(), a);
            }
            None => {
                return Err(loc.unsupported(
                    format!("group variable `{}` defined outside the module", s.name),
                    s.offset.get(),
                ));
            }
        }
    }
    Ok((map, off))
}

impl Cx<'_> {
    /// A group-segment address: (base VGPR, `offset:` field).
    pub(super) fn group_address(&mut self, o: OperandOffset, what: &str) -> Result<(VReg, i32)> {
        let Ok(brig::Operand::Address(a)) = self.m.operand(o) else {
            return Err(self.unsupported(format!("{what}: this address operand")));
        };
        let mut offset = a.offset.get() as i64;
        if a.symbol.get() != 0 {
            match self.group.get(&a.symbol.get()) {
                Some(&g) => offset += i64::from(g),
                None => {
                    return Err(self.unsupported(format!(
                        "{what}: a group address of a variable outside the group segment"
                    )));
                }
            }
        }
        let offset = offset as u32 as i64;
        let base = if a.reg.get() != 0 {
            match self.m.operand(a.reg) {
                Ok(brig::Operand::Register(reg)) if reg.reg_kind == BrigRegisterKind::SINGLE => {
                    Some(self.reg(reg.reg_kind, reg.reg_num.get())?)
                }
                _ => {
                    return Err(
                        self.unsupported(format!("{what}: a group address in a 64-bit register"))
                    );
                }
            }
        } else {
            None
        };
        match base {
            Some(b) if (0..=0xffff).contains(&offset) => Ok((b, offset as i32)),
            Some(b) => {
                let k = self.val(Src::Const(offset as u64), 0)?;
                let t = self.vtemp(1);
                self.emit("v_add_u32_e64", vec![r(t), r(b), k])?;
                Ok((t, 0))
            }
            None => {
                let t = self.vtemp(1);
                self.emit("v_mov_b32", vec![r(t), Opnd::constant(offset as u32)])?;
                Ok((t, 0))
            }
        }
    }

    pub(super) fn lower_ld_group(
        &mut self,
        mem: &BrigInstMem,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let Some((kind, bits)) = ty(mem.base.type_) else {
            return Err(self.unsupported(what.to_string()));
        };
        if !matches!(self.m.operand(ops[0]), Ok(brig::Operand::Register(_))) {
            return Err(self.unsupported(format!("{what} to a vector of registers")));
        }
        let mn = match (bits, kind) {
            (8, Kind::S) => "ds_read_i8",
            (8, _) => "ds_read_u8",
            (16, Kind::S) => "ds_read_i16",
            (16, _) => "ds_read_u16",
            (32, _) => "ds_read_b32",
            (64, _) => "ds_read_b64",
            _ => return Err(self.unsupported(what.to_string())),
        };
        let d = self.dst(ops[0])?;
        let (addr, imm) = self.group_address(ops[1], what)?;
        let dst = if bits == 64 { pair(d) } else { r(d) };
        let mut inst = self.minst(mn, vec![dst, r(addr)])?;
        inst.mods.offset = imm;
        self.emit_inst(inst);
        Ok(())
    }

    /// A store/atomic data operand of `bits` (32 or 64) as a VGPR (tuple).
    pub(super) fn data_reg(&mut self, o: OperandOffset, bits: u32, what: &str) -> Result<VReg> {
        let s = match self.m.operand(o) {
            Ok(brig::Operand::Register(_)) | Ok(brig::Operand::ConstantBytes(_)) => self.src(o)?,
            _ => return Err(self.unsupported(format!("{what} of a vector of registers"))),
        };
        match (s, bits) {
            (Src::Reg(v), _) => Ok(v),
            (Src::Const(_), 64) => self.val64(s),
            (Src::Const(c), _) => {
                let v = self.vtemp(1);
                self.emit("v_mov_b32", vec![r(v), Opnd::constant(c as u32)])?;
                Ok(v)
            }
        }
    }

    pub(super) fn lower_st_group(
        &mut self,
        mem: &BrigInstMem,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let Some((_, bits)) = ty(mem.base.type_) else {
            return Err(self.unsupported(what.to_string()));
        };
        let mn = match bits {
            8 => "ds_write_b8",
            16 => "ds_write_b16",
            32 => "ds_write_b32",
            64 => "ds_write_b64",
            _ => return Err(self.unsupported(what.to_string())),
        };
        let data = self.data_reg(ops[0], bits, what)?;
        let (addr, imm) = self.group_address(ops[1], what)?;
        let dv = if bits == 64 { pair(data) } else { r(data) };
        let mut inst = self.minst(mn, vec![r(addr), dv])?;
        inst.mods.offset = imm;
        self.emit_inst(inst);
        Ok(())
    }

    pub(super) fn lower_lda(
        &mut self,
        a: &BrigInstAddr,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        if a.segment != BrigSegment::GROUP {
            return Err(self.unsupported(format!("{what} outside the group segment")));
        }
        let wide = match a.base.type_ {
            brig::BrigType::U32 => false,
            brig::BrigType::U64 => true,
            _ => return Err(self.unsupported(what.to_string())),
        };
        let d = self.dst(ops[0])?;
        let (base, imm) = self.group_address(ops[1], what)?;
        if imm == 0 {
            self.emit("v_mov_b32", vec![dw(d, 0), r(base)])?;
        } else {
            let k = self.val(Src::Const(imm as u64), 0)?;
            self.emit("v_add_u32_e64", vec![dw(d, 0), r(base), k])?;
        }
        if wide {
            self.emit("v_mov_b32", vec![dw(d, 1), Opnd::constant(0)])?;
        }
        Ok(())
    }

    /// `barrier`: everything this wave wrote is done, then the barrier.
    pub(super) fn lower_barrier(&mut self) -> Result<()> {
        self.emit("s_waitcnt", vec![Opnd::imm(WAIT_ALL)])?;
        self.emit("s_barrier", vec![])
    }

    /// The fence before a release at `scope`.
    fn release(&mut self, scope: BrigMemoryScope) -> Result<()> {
        match scope {
            BrigMemoryScope::WORKGROUP | BrigMemoryScope::AGENT => {
                self.emit("s_waitcnt", vec![Opnd::imm(WAIT_ALL)])
            }
            BrigMemoryScope::SYSTEM => {
                if self.t == Target::Gfx90a {
                    self.emit("buffer_wbl2", vec![])?;
                }
                self.emit("s_waitcnt", vec![Opnd::imm(WAIT_ALL)])
            }
            _ => Ok(()),
        }
    }

    /// The fence after an acquire at `scope` (`fence`: a `memfence`, which
    /// also waits at workgroup scope).
    fn acquire(&mut self, scope: BrigMemoryScope, fence: bool) -> Result<()> {
        match scope {
            BrigMemoryScope::WORKGROUP if fence => {
                self.emit("s_waitcnt", vec![Opnd::imm(WAIT_ALL)])
            }
            BrigMemoryScope::AGENT | BrigMemoryScope::SYSTEM => {
                self.emit("s_waitcnt", vec![Opnd::imm(WAIT_ALL)])?;
                if scope == BrigMemoryScope::SYSTEM && self.t == Target::Gfx90a {
                    self.emit("buffer_invl2", vec![])?;
                }
                self.emit("buffer_wbinvl1_vol", vec![])
            }
            _ => Ok(()),
        }
    }

    pub(super) fn lower_memfence(&mut self, f: &BrigInstMemFence, what: &str) -> Result<()> {
        let rank = |s: BrigMemoryScope| match s {
            BrigMemoryScope::SYSTEM => 5,
            BrigMemoryScope::AGENT => 4,
            BrigMemoryScope::WORKGROUP => 3,
            BrigMemoryScope::WAVEFRONT => 2,
            _ => 0,
        };
        let scope = if rank(f.global_segment_memory_scope) >= rank(f.group_segment_memory_scope) {
            f.global_segment_memory_scope
        } else {
            f.group_segment_memory_scope
        };
        let (acq, rel) = self.order(f.memory_order, what)?;
        if rel {
            self.release(scope)?;
        }
        if acq {
            self.acquire(scope, true)?;
        }
        Ok(())
    }

    /// (acquire, release) of a memory order.
    fn order(&self, o: BrigMemoryOrder, what: &str) -> Result<(bool, bool)> {
        Ok(match o {
            BrigMemoryOrder::NONE | BrigMemoryOrder::RELAXED => (false, false),
            BrigMemoryOrder::SC_ACQUIRE => (true, false),
            BrigMemoryOrder::SC_RELEASE => (false, true),
            BrigMemoryOrder::SC_ACQUIRE_RELEASE => (true, true),
            _ => return Err(self.unsupported(format!("{what} with this memory order"))),
        })
    }

    pub(super) fn lower_atomic(
        &mut self,
        a: &BrigInstAtomic,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let ret = a.base.opcode == BrigOpcode::ATOMIC;
        let flat = match a.segment {
            BrigSegment::GLOBAL => false,
            BrigSegment::FLAT => true,
            BrigSegment::GROUP => return self.lower_atomic_group(a, ops, what),
            _ => {
                return Err(self.unsupported(format!(
                    "{what} on the {:?} segment (atomics on global, group and flat memory only)",
                    a.segment
                )));
            }
        };
        let Some((kind, bits @ (32 | 64))) = ty(a.base.type_) else {
            return Err(self.unsupported(what.to_string()));
        };
        let signed = kind == Kind::S;
        use BrigAtomicOperation as A;
        let op = a.atomic_operation;
        let name = match op {
            A::ADD => "add",
            A::SUB => "sub",
            A::AND => "and",
            A::OR => "or",
            A::XOR => "xor",
            A::EXCH => "swap",
            A::MIN if signed => "smin",
            A::MIN => "umin",
            A::MAX if signed => "smax",
            A::MAX => "umax",
            A::CAS => "cmpswap",
            A::WRAPINC => "inc",
            A::WRAPDEC => "dec",
            A::LD | A::ST => "",
            _ => return Err(self.unsupported(what.to_string())),
        };
        let (acq, rel) = self.order(a.memory_order, what)?;
        let scope = a.memory_scope;
        let w = (bits / 32) as u8;
        let wide = |v: VReg, n: u8| Opnd::Reg {
            reg: v,
            offset: 0,
            width: n,
        };
        let first = usize::from(ret);
        let (sym, reg, offset) = self.address(ops[first])?;
        let data = match op {
            A::LD => None,
            A::CAS => {
                // {new, compare}: HSAIL's src1 is the value stored when
                // memory equals src0.
                let cmp = self.data_reg(ops[first + 1], bits, what)?;
                let new = self.data_reg(ops[first + 2], bits, what)?;
                let d = self.vtemp(2 * w);
                for i in 0..w {
                    self.emit("v_mov_b32", vec![dw(d, i), dw(new, i)])?;
                    self.emit("v_mov_b32", vec![dw(d, w + i), dw(cmp, i)])?;
                }
                Some(wide(d, 2 * w))
            }
            _ => Some(wide(self.data_reg(ops[first + 1], bits, what)?, w)),
        };
        let (addr, imm) = self.vmem_address(sym, reg, offset, flat, what)?;
        let prefix = if flat { "flat" } else { "global" };
        let x2 = if bits == 64 { "_x2" } else { "" };
        let dwords = if bits == 64 { "dwordx2" } else { "dword" };
        let mn = match op {
            A::LD => format!("{prefix}_load_{dwords}"),
            A::ST => format!("{prefix}_store_{dwords}"),
            _ => format!("{prefix}_atomic_{name}{x2}"),
        };
        let mut v = Vec::new();
        if ret {
            let d = self.dst(ops[0])?;
            v.push(wide(d, w));
        }
        v.push(pair(addr));
        v.extend(data);
        if !flat {
            v.push(Opnd::off());
        }
        if rel {
            self.release(scope)?;
        }
        let mut inst = self.minst(&mn, v)?;
        inst.mods.offset = imm;
        // Returning atomics and atomic loads bypass the L1 (glc).
        inst.mods.glc = ret && (op != A::LD || scope_beyond_workgroup(scope));
        self.emit_inst(inst);
        if acq {
            self.acquire(scope, false)?;
        }
        Ok(())
    }

    /// An atomic on the group segment: the DS atomics (`_rtn` forms when
    /// the old value is used), `ds_read`/`ds_write` for `ld`/`st` (and a
    /// non-returning `exch`).
    fn lower_atomic_group(
        &mut self,
        a: &BrigInstAtomic,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let ret = a.base.opcode == BrigOpcode::ATOMIC;
        let Some((kind, bits @ (32 | 64))) = ty(a.base.type_) else {
            return Err(self.unsupported(what.to_string()));
        };
        let (u, i, b) = if bits == 64 {
            ("u64", "i64", "b64")
        } else {
            ("u32", "i32", "b32")
        };
        let signed = kind == Kind::S;
        use BrigAtomicOperation as A;
        let op = a.atomic_operation;
        let rtn = if ret { "rtn_" } else { "" };
        let mn = match op {
            A::ADD => format!("ds_add_{rtn}{u}"),
            A::SUB => format!("ds_sub_{rtn}{u}"),
            A::AND => format!("ds_and_{rtn}{b}"),
            A::OR => format!("ds_or_{rtn}{b}"),
            A::XOR => format!("ds_xor_{rtn}{b}"),
            A::EXCH if ret => format!("ds_wrxchg_rtn_{b}"),
            A::EXCH | A::ST => format!("ds_write_{b}"),
            A::LD => format!("ds_read_{b}"),
            A::MIN => format!("ds_min_{rtn}{}", if signed { i } else { u }),
            A::MAX => format!("ds_max_{rtn}{}", if signed { i } else { u }),
            A::CAS => format!("ds_cmpst_{rtn}{b}"),
            A::WRAPINC => format!("ds_inc_{rtn}{u}"),
            A::WRAPDEC => format!("ds_dec_{rtn}{u}"),
            _ => return Err(self.unsupported(what.to_string())),
        };
        let (acq, rel) = self.order(a.memory_order, what)?;
        let w = (bits / 32) as u8;
        let wide = |v: VReg| Opnd::Reg {
            reg: v,
            offset: 0,
            width: w,
        };
        let first = usize::from(ret);
        let mut data = Vec::new();
        // ds_cmpst: DATA0 is the compare value, DATA1 the new one, as in
        // HSAIL's src0, src1.
        let n = match op {
            A::LD => 0,
            A::CAS => 2,
            _ => 1,
        };
        for k in 0..n {
            let v = self.data_reg(ops[first + 1 + k], bits, what)?;
            data.push(wide(v));
        }
        let (addr, imm) = self.group_address(ops[first], what)?;
        let mut v = Vec::new();
        if ret {
            let d = self.dst(ops[0])?;
            v.push(wide(d));
        }
        v.push(r(addr));
        v.extend(data);
        if rel {
            self.release(a.memory_scope)?;
        }
        let mut inst = self.minst(&mn, v)?;
        inst.mods.offset = imm;
        self.emit_inst(inst);
        if acq {
            self.acquire(a.memory_scope, false)?;
        }
        Ok(())
    }
}

/// Whether `s` is agent or system scope.
fn scope_beyond_workgroup(s: BrigMemoryScope) -> bool {
    matches!(s, BrigMemoryScope::AGENT | BrigMemoryScope::SYSTEM)
}

impl Cx<'_> {
    pub(super) fn address(&mut self, o: OperandOffset) -> Result<(Option<u32>, Option<VReg>, i64)> {
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

    pub(super) fn lower_ld(
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
    pub(super) fn vmem_address(
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

    pub(super) fn lower_st(
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
    pub(super) fn emit_vmem(
        &mut self,
        op: &str,
        flat: bool,
        mut ops: Vec<Opnd>,
        offset: i32,
    ) -> Result<()> {
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
