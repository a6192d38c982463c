//! Segment layouts (group and private variables), `barrier`, atomics on
//! global, flat and group memory, and `memfence`, with the memory model
//! mapped to AMDGPUUsage's code sequences for GFX90A and GFX6-GFX9
//! (gfx900), without threadgroup-split mode. HSAIL's synchronizing
//! operations order both the group and the global segment (PRM 6.2.3), so
//! every operation takes the tables' *generic* address space rows:
//!
//! | scope     | release before                       | acquire after                                        |
//! |-----------|--------------------------------------|------------------------------------------------------|
//! | wavefront | —                                    | —                                                    |
//! | workgroup | `s_waitcnt lgkmcnt(0)`               | `s_waitcnt lgkmcnt(0)`                               |
//! | agent     | `s_waitcnt vmcnt(0) lgkmcnt(0)`      | `s_waitcnt vmcnt(0) lgkmcnt(0)`; `buffer_wbinvl1_vol` |
//! | system    | gfx90a: `buffer_wbl2`; then as agent | as agent, gfx90a with `buffer_invl2` before `buffer_wbinvl1_vol` |
//!
//! Atomic loads at agent and system scope set `glc` (monotonic and
//! acquire loads bypass L1); a sequentially consistent (`scacq`/`scar`)
//! atomic load first waits as the release column does (AMDGPUUsage
//! "load atomic seq_cst"); stores are plain stores after the release
//! fence; read-modify-write atomics set `glc` only to return the old value.

use std::collections::HashMap;

use amdgpu_codegen::emit::{WAIT_ALL, WAIT_LGKM};
use amdgpu_codegen::{Opnd, Target, VReg};
use brig::{
    BrigAtomicOperation, BrigDirectiveVariable, BrigInstAtomic, BrigInstMemFence, BrigInstQueue,
    BrigMemoryOrder, BrigMemoryScope, BrigModule, BrigOpcode, BrigSegment, OperandOffset,
};
use hsail::validate::{CodeBlock, Symbol, SymbolKind};

use super::ldst::{Addr, Mem};
use super::{Cx, Kind, Src, dw, pair, r, ty};
use crate::{Error, Locator, Result};

/// Lays out the module-scope and kernel-scope variables of `segments`
/// (group; or private and spill, one per work-item): directive
/// (and, for module scope, every declaration of it) → segment address,
/// and the total size.
pub(super) fn segment_layout(
    m: &BrigModule<'_>,
    module_syms: &[Symbol],
    cb: &CodeBlock,
    loc: &Locator<'_>,
    segments: &[BrigSegment],
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
        if !segments.contains(&v.segment) {
            continue;
        }
        let Some(size) = v.type_.byte_size() else {
            return Err(loc.unsupported(
                format!("{:?} variable of type {:?}", v.segment, v.type_),
                s.offset.get(),
            ));
        };
        let count = if v.type_.is_array() { v.dim.get() } else { 1 };
        let align = v.align.bytes().unwrap_or(1).max(size).max(4);
        off = off.next_multiple_of(align);
        map.insert(s.offset.get(), off);
        off = u64::from(size)
            .checked_mul(count)
            .and_then(|n| n.checked_add(u64::from(off)))
            .and_then(|end| u32::try_from(end).ok())
            .ok_or_else(|| {
                loc.unsupported(
                    format!("a {:?} segment of more than 4 GiB", v.segment),
                    s.offset.get(),
                )
            })?;
    }
    for s in vars.filter(|s| !s.is_definition) {
        let v: &BrigDirectiveVariable = m.code_as(s.offset).map_err(brig_err)?;
        if !segments.contains(&v.segment) {
            continue;
        }
        match s.definition.and_then(|d| map.get(&d.get()).copied()) {
            Some(a) => {
                map.insert(s.offset.get(), a);
            }
            None => {
                return Err(loc.unsupported(
                    format!(
                        "{:?} variable `{}` defined outside the module",
                        v.segment, s.name
                    ),
                    s.offset.get(),
                ));
            }
        }
    }
    Ok((map, off))
}

impl Cx<'_> {
    /// A store/atomic data operand of `bits` (32 or 64) as a VGPR (tuple).
    pub(super) fn data_reg(&mut self, o: OperandOffset, bits: u32, what: &str) -> Result<VReg> {
        let s = match self.m.operand(o) {
            Ok(brig::Operand::Register(_)) | Ok(brig::Operand::ConstantBytes(_)) => self.src(o)?,
            _ => return Err(self.unsupported(format!("{what} of a vector of registers"))),
        };
        match (s, bits) {
            (Src::Reg(v), _) => Ok(v),
            (Src::Const(_), 64) => self.val64(s),
            (Src::Const(_), 128) => Err(self.unsupported(format!("{what} of a 128-bit constant"))),
            (Src::Const(c), _) => {
                let v = self.vtemp(1);
                self.emit("v_mov_b32", vec![r(v), Opnd::constant(c as u32)])?;
                Ok(v)
            }
        }
    }

    /// `barrier`: everything this wave wrote is done, then the barrier.
    pub(super) fn lower_barrier(&mut self) -> Result<()> {
        self.emit("s_waitcnt", vec![Opnd::imm(WAIT_ALL)])?;
        self.emit("s_barrier", vec![])
    }

    fn wait(&mut self, counts: i64) -> Result<()> {
        self.emit("s_waitcnt", vec![Opnd::imm(counts)])
    }

    /// The fence before a release at `scope` (AMDGPUUsage, generic address
    /// space rows: an HSAIL synchronizing operation orders both the group
    /// and the global segment).
    pub(super) fn release(&mut self, scope: BrigMemoryScope) -> Result<()> {
        match scope {
            BrigMemoryScope::WORKGROUP => self.wait(WAIT_LGKM),
            BrigMemoryScope::AGENT => self.wait(WAIT_ALL),
            BrigMemoryScope::SYSTEM => {
                if self.t == Target::Gfx90a {
                    self.emit("buffer_wbl2", vec![])?;
                }
                self.wait(WAIT_ALL)
            }
            _ => Ok(()),
        }
    }

    /// The fence after an acquire at `scope`.
    pub(super) fn acquire(&mut self, scope: BrigMemoryScope) -> Result<()> {
        match scope {
            BrigMemoryScope::WORKGROUP => self.wait(WAIT_LGKM),
            BrigMemoryScope::AGENT | BrigMemoryScope::SYSTEM => {
                self.wait(WAIT_ALL)?;
                if scope == BrigMemoryScope::SYSTEM && self.t == Target::Gfx90a {
                    self.emit("buffer_invl2", vec![])?;
                }
                self.emit("buffer_wbinvl1_vol", vec![])
            }
            _ => Ok(()),
        }
    }

    /// The wait before a sequentially consistent atomic load (it must not
    /// overtake an earlier sequentially consistent store).
    fn sc_load_wait(&mut self, scope: BrigMemoryScope) -> Result<()> {
        match scope {
            BrigMemoryScope::WORKGROUP => self.wait(WAIT_LGKM),
            BrigMemoryScope::AGENT | BrigMemoryScope::SYSTEM => self.wait(WAIT_ALL),
            _ => Ok(()),
        }
    }

    pub(super) fn lower_memfence(&mut self, f: &BrigInstMemFence, what: &str) -> Result<()> {
        let scope = wider(f.global_segment_memory_scope, f.group_segment_memory_scope);
        let (acq, rel) = self.order(f.memory_order, what)?;
        if rel {
            self.release(scope)?;
        }
        if acq {
            self.acquire(scope)?;
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

    /// `atomic` and `atomicnoret` on global, flat and group memory: the
    /// memory-model fences around one `global_`/`flat_`/`ds_` atomic (or
    /// load/store for `ld`/`st`).
    pub(super) fn lower_atomic(
        &mut self,
        a: &BrigInstAtomic,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let access = Atomic {
            ret: a.base.opcode == BrigOpcode::ATOMIC,
            segment: a.segment,
            type_: a.base.type_,
            op: a.atomic_operation,
            order: a.memory_order,
            scope: a.memory_scope,
            field: 0,
        };
        self.atomic(&access, ops, what)
    }

    /// The user-mode queue index instructions (PRM 11.3) on the queue at
    /// the address operand: atomic accesses, at system scope, of the
    /// `amd_queue_t` read and write dispatch IDs the runtime keeps there
    /// (`hsa_runtime::queue::QUEUE_READ_DISPATCH_ID` and
    /// `QUEUE_WRITE_DISPATCH_ID`).
    pub(super) fn lower_queue(
        &mut self,
        q: &BrigInstQueue,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        use BrigAtomicOperation as A;
        let (op, ret, field) = match q.base.opcode {
            BrigOpcode::LDQUEUEREADINDEX => (A::LD, true, QUEUE_READ_INDEX),
            BrigOpcode::LDQUEUEWRITEINDEX => (A::LD, true, QUEUE_WRITE_INDEX),
            BrigOpcode::STQUEUEREADINDEX => (A::ST, false, QUEUE_READ_INDEX),
            BrigOpcode::STQUEUEWRITEINDEX => (A::ST, false, QUEUE_WRITE_INDEX),
            BrigOpcode::ADDQUEUEWRITEINDEX => (A::ADD, true, QUEUE_WRITE_INDEX),
            BrigOpcode::CASQUEUEWRITEINDEX => (A::CAS, true, QUEUE_WRITE_INDEX),
            _ => return Err(self.unsupported(what.to_string())),
        };
        let access = Atomic {
            ret,
            segment: q.segment,
            type_: q.base.type_,
            op,
            order: q.memory_order,
            scope: BrigMemoryScope::SYSTEM,
            field,
        };
        self.atomic(&access, ops, what)
    }

    /// One atomic access (see [`Atomic`]) at the address operand (after
    /// the destination, if any) with its memory-model fences.
    fn atomic(&mut self, a: &Atomic, ops: &[OperandOffset], what: &str) -> Result<()> {
        if !matches!(
            a.segment,
            BrigSegment::GLOBAL | BrigSegment::FLAT | BrigSegment::GROUP
        ) {
            return Err(self.unsupported(format!(
                "{what} on the {:?} segment (atomics on global, group and flat memory only)",
                a.segment
            )));
        }
        let first = usize::from(a.ret);
        let addr = self.resolve(a.segment, ops[first], what)?;
        let dest = if a.ret { Some(self.dst(ops[0])?) } else { None };
        self.atomic_at(a, &addr, dest, &ops[first + 1..], what)
    }

    /// One atomic access (see [`Atomic`]) at `addr` (plus `a.field`),
    /// returning the old value into `dest` (when `a.ret`), with the data
    /// operands `data` (none for `ld`; compare and new value for `cas`).
    pub(super) fn atomic_at(
        &mut self,
        a: &Atomic,
        addr: &Addr,
        dest: Option<VReg>,
        data: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        use BrigAtomicOperation as A;
        let ret = a.ret;
        let Some((kind, bits @ (32 | 64))) = ty(a.type_) else {
            return Err(self.unsupported(what.to_string()));
        };
        let op = a.op;
        let need = match op {
            A::LD => 0,
            A::CAS => 2,
            _ => 1,
        };
        if data.len() < need || (ret && dest.is_none()) {
            return Err(self.unsupported(format!("{what} with missing operands")));
        }
        let lds = addr.mem == Mem::Lds;
        let Some(mn) = atomic_mnemonic(op, kind == Kind::S, bits, addr.mem, ret) else {
            return Err(self.unsupported(what.to_string()));
        };
        let (acq, rel) = self.order(a.order, what)?;
        let scope = a.scope;
        let w = (bits / 32) as u8;
        let wide = |v: VReg, n: u8| Opnd::Reg {
            reg: v,
            offset: 0,
            width: n,
        };
        let data = match op {
            A::LD => Vec::new(),
            A::CAS if lds => {
                // ds_cmpst: DATA0 is the compare value, DATA1 the new one,
                // as HSAIL's src0 and src1.
                let cmp = self.data_reg(data[0], bits, what)?;
                let new = self.data_reg(data[1], bits, what)?;
                vec![wide(cmp, w), wide(new, w)]
            }
            A::CAS => {
                // cmpswap: {new, compare} in one tuple.
                let cmp = self.data_reg(data[0], bits, what)?;
                let new = self.data_reg(data[1], bits, what)?;
                let d = self.vtemp(2 * w);
                for i in 0..w {
                    self.emit("v_mov_b32", vec![dw(d, i), dw(new, i)])?;
                    self.emit("v_mov_b32", vec![dw(d, w + i), dw(cmp, i)])?;
                }
                vec![wide(d, 2 * w)]
            }
            _ => vec![wide(self.data_reg(data[0], bits, what)?, w)],
        };
        let (base, imm) = self.place(addr, a.field)?;
        let mut v = Vec::new();
        if let Some(d) = dest.filter(|_| ret) {
            v.push(wide(d, w));
        }
        v.push(if lds { r(base) } else { pair(base) });
        v.extend(data);
        if addr.mem == (Mem::Vmem { flat: false }) {
            v.push(Opnd::off());
        }
        if op == A::LD && acq {
            self.sc_load_wait(scope)?;
        }
        if rel {
            self.release(scope)?;
        }
        let mut inst = self.minst(&mn, v)?;
        inst.mods.offset = imm;
        // Returning atomics need glc to return the old value; atomic loads
        // at agent and system scope bypass the (non-coherent) L1.
        inst.mods.glc = !lds && ret && (op != A::LD || scope_beyond_workgroup(scope));
        self.emit_inst(inst);
        if acq {
            self.acquire(scope)?;
        }
        Ok(())
    }
}

/// Byte offset of the read index (`read_dispatch_id`) in the runtime's
/// queue (`amd_queue_t`).
const QUEUE_READ_INDEX: i64 = 128;
/// Byte offset of the write index (`write_dispatch_id`).
const QUEUE_WRITE_INDEX: i64 = 56;

/// An atomic access: `atomic`/`atomicnoret`, a queue index instruction or
/// a signal instruction.
pub(super) struct Atomic {
    /// Returns the old value (has a destination operand).
    pub ret: bool,
    pub segment: BrigSegment,
    pub type_: brig::BrigType,
    pub op: BrigAtomicOperation,
    pub order: BrigMemoryOrder,
    pub scope: BrigMemoryScope,
    /// Bytes added to the address (a field of the addressed structure).
    pub field: i64,
}

/// The machine instruction of an atomic `op` on `mem` (returning: `ret`).
fn atomic_mnemonic(
    op: BrigAtomicOperation,
    signed: bool,
    bits: u32,
    mem: Mem,
    ret: bool,
) -> Option<String> {
    use BrigAtomicOperation as A;
    let wide = bits == 64;
    if mem == Mem::Lds {
        let (u, i, b) = if wide {
            ("u64", "i64", "b64")
        } else {
            ("u32", "i32", "b32")
        };
        let rtn = if ret { "rtn_" } else { "" };
        let minmax = if signed { i } else { u };
        return Some(match op {
            A::ADD => format!("ds_add_{rtn}{u}"),
            A::SUB => format!("ds_sub_{rtn}{u}"),
            A::AND => format!("ds_and_{rtn}{b}"),
            A::OR => format!("ds_or_{rtn}{b}"),
            A::XOR => format!("ds_xor_{rtn}{b}"),
            // No non-returning exchange: a plain write is atomic in LDS.
            A::EXCH if ret => format!("ds_wrxchg_rtn_{b}"),
            A::EXCH | A::ST => format!("ds_write_{b}"),
            A::LD => format!("ds_read_{b}"),
            A::MIN => format!("ds_min_{rtn}{minmax}"),
            A::MAX => format!("ds_max_{rtn}{minmax}"),
            A::CAS => format!("ds_cmpst_{rtn}{b}"),
            A::WRAPINC => format!("ds_inc_{rtn}{u}"),
            A::WRAPDEC => format!("ds_dec_{rtn}{u}"),
            _ => return None,
        });
    }
    let prefix = if mem == (Mem::Vmem { flat: true }) {
        "flat"
    } else {
        "global"
    };
    let (x2, dwordx2) = if wide { ("_x2", "x2") } else { ("", "") };
    let name = match op {
        A::LD => return Some(format!("{prefix}_load_dword{dwordx2}")),
        A::ST => return Some(format!("{prefix}_store_dword{dwordx2}")),
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
        _ => return None,
    };
    Some(format!("{prefix}_atomic_{name}{x2}"))
}

/// The wider of two memory scopes.
fn wider(a: BrigMemoryScope, b: BrigMemoryScope) -> BrigMemoryScope {
    let rank = |s: BrigMemoryScope| match s {
        BrigMemoryScope::SYSTEM => 5,
        BrigMemoryScope::AGENT => 4,
        BrigMemoryScope::WORKGROUP => 3,
        BrigMemoryScope::WAVEFRONT => 2,
        _ => 0,
    };
    if rank(a) >= rank(b) { a } else { b }
}

/// Whether `s` is agent or system scope.
fn scope_beyond_workgroup(s: BrigMemoryScope) -> bool {
    matches!(s, BrigMemoryScope::AGENT | BrigMemoryScope::SYSTEM)
}
