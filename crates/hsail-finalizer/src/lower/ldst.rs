//! `ld`, `st` and `lda` on every segment (PRM 6.3, 6.4, 5.8):
//!
//! | segment            | machine memory | address                                     |
//! |--------------------|----------------|---------------------------------------------|
//! | kernarg (variable) | SMEM           | kernarg pointer + constant: `s_load_dword*` |
//! | kernarg (register), global, readonly | `global_*` | 64-bit VGPR pair + signed 13-bit offset |
//! | global/readonly variable | `global_*` | PC-relative pair ([`super::globals`])  |
//! | flat               | `flat_*`       | 64-bit VGPR pair + unsigned 12-bit offset   |
//! | group              | `ds_*`         | 32-bit LDS address + unsigned 16-bit offset |
//! | private, spill     | `scratch_*`    | 32-bit per-lane private offset + signed 13-bit offset |
//!
//! Vector forms (`_v2`/`_v3`/`_v4`) of 32- and 64-bit elements in global
//! memory move their dwords with `dwordx4`/`dwordx2` accesses; other
//! vectors access their elements one by one. Alignment: `align(n)` may be
//! omitted (PRM 6.3.2: then the address may be unaligned). GLOBAL, FLAT
//! and DS accesses up to 64 bits need no alignment in the GFX9 unaligned
//! access mode the HSA runtime sets up (`SH_MEM_CONFIG.alignment_mode`);
//! `ds_*_b128` below 16-byte alignment is done as two 64-bit halves;
//! private accesses whose alignment is not known (a register in the
//! address and no `align(n)`) are split into bytes, since per-lane
//! swizzled scratch is only addressed exactly at dword granularity.
//! Kernarg loads at any offset are assembled from the aligned dwords
//! around them.
//!
//! Small machine model (PRM 2.9): global, readonly, flat and register
//! kernarg addresses are 32-bit. [`Cx::small_addr`] adds the offset modulo
//! 2^32 and zero-extends the sum to the 64-bit VGPR pair the `global_*`
//! instructions take (the runtime keeps a small-model program's memory
//! below 4 GiB); flat addresses map through the windows of
//! [`super::private`].

use amdgpu_codegen::{Opnd, VReg};
use brig::{BrigInstAddr, BrigInstMem, BrigRegisterKind, BrigSegment, BrigType, OperandOffset};

use super::{Cx, Kind, Src, dw, pair, r, ty};
use crate::Result;

/// The machine memory an HSAIL access goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mem {
    /// The kernarg segment at a constant offset (scalar loads).
    Kernarg,
    /// Global memory through `global_*` (`flat: false`) or any flat
    /// address through `flat_*`.
    Vmem { flat: bool },
    /// The group segment (LDS).
    Lds,
    /// The private and spill segments (scratch).
    Scratch,
}

/// A resolved address: `base` (a VGPR pair for [`Mem::Vmem`], one VGPR
/// for LDS and scratch, none for a constant address) plus `off` bytes.
#[derive(Debug, Clone, Copy)]
pub(super) struct Addr {
    pub mem: Mem,
    pub base: Option<VReg>,
    pub off: i64,
}

/// Class and bits of a memory type (`b128` included; signal handles are
/// opaque 64- or 32-bit data, PRM 6.3).
fn mem_ty(t: BrigType) -> Option<(Kind, u32)> {
    match t {
        BrigType::B128 => Some((Kind::B, 128)),
        BrigType::SIG64 => Some((Kind::B, 64)),
        BrigType::SIG32 => Some((Kind::B, 32)),
        _ => ty(t).filter(|&(_, b)| b >= 8),
    }
}

/// The instruction suffix of a load or store of `bits` on `mem` (not
/// kernarg): `ubyte`, `read_i16`, `store_dwordx2`, …
fn op_suffix(mem: Mem, bits: u32, signed: bool, store: bool) -> Option<&'static str> {
    let ds = mem == Mem::Lds;
    Some(match (ds, store, bits, signed) {
        (false, false, 8, true) => "load_sbyte",
        (false, false, 8, false) => "load_ubyte",
        (false, false, 16, true) => "load_sshort",
        (false, false, 16, false) => "load_ushort",
        (false, false, 32, _) => "load_dword",
        (false, false, 64, _) => "load_dwordx2",
        (false, false, 128, _) => "load_dwordx4",
        (false, true, 8, _) => "store_byte",
        (false, true, 16, _) => "store_short",
        (false, true, 32, _) => "store_dword",
        (false, true, 64, _) => "store_dwordx2",
        (false, true, 128, _) => "store_dwordx4",
        (true, false, 8, true) => "read_i8",
        (true, false, 8, false) => "read_u8",
        (true, false, 16, true) => "read_i16",
        (true, false, 16, false) => "read_u16",
        (true, false, 32, _) => "read_b32",
        (true, false, 64, _) => "read_b64",
        (true, false, 128, _) => "read_b128",
        (true, true, 8, _) => "write_b8",
        (true, true, 16, _) => "write_b16",
        (true, true, 32, _) => "write_b32",
        (true, true, 64, _) => "write_b64",
        (true, true, 128, _) => "write_b128",
        _ => return None,
    })
}

/// Dwords of a register holding a value of `bits`.
fn dwords(bits: u32) -> u8 {
    bits.div_ceil(32) as u8
}

fn wide(v: VReg, n: u8) -> Opnd {
    Opnd::Reg {
        reg: v,
        offset: 0,
        width: n,
    }
}

impl Cx<'_> {
    /// The register of an address expression, with whether it is 64-bit.
    fn addr_reg(&mut self, reg: OperandOffset, what: &str) -> Result<Option<(VReg, bool)>> {
        if reg.get() == 0 {
            return Ok(None);
        }
        match self.m.operand(reg) {
            Ok(brig::Operand::Register(r)) => {
                let wide = r.reg_kind == BrigRegisterKind::DOUBLE;
                Ok(Some((self.reg(r.reg_kind, r.reg_num.get())?, wide)))
            }
            _ => Err(self.unsupported(format!("{what}: this address register"))),
        }
    }

    /// Resolves an address expression of an access to `seg` (PRM 6.1.1:
    /// variable offset + register + offset).
    pub(super) fn resolve(
        &mut self,
        seg: BrigSegment,
        o: OperandOffset,
        what: &str,
    ) -> Result<Addr> {
        let Ok(brig::Operand::Address(a)) = self.m.operand(o) else {
            return Err(self.unsupported(format!("{what}: this address operand")));
        };
        let mut off = a.offset.get() as i64;
        let sym = a.symbol.get();
        let reg = self.addr_reg(a.reg, what)?;
        let var = |map: &std::collections::HashMap<u32, u32>| map.get(&sym).copied();
        let (mem, sym_off) = match seg {
            BrigSegment::KERNARG if reg.is_none() => (Mem::Kernarg, var(&self.kernargs)),
            BrigSegment::KERNARG if sym == 0 => (Mem::Vmem { flat: false }, Some(0)),
            BrigSegment::GLOBAL | BrigSegment::READONLY if sym == 0 => {
                (Mem::Vmem { flat: false }, Some(0))
            }
            BrigSegment::GLOBAL | BrigSegment::READONLY => {
                return self.global_var_addr(sym, reg, off, what);
            }
            BrigSegment::FLAT | BrigSegment::NONE if sym == 0 => {
                (Mem::Vmem { flat: true }, Some(0))
            }
            BrigSegment::GROUP => (Mem::Lds, var(&self.group)),
            BrigSegment::PRIVATE | BrigSegment::SPILL => (Mem::Scratch, var(&self.private)),
            _ => {
                return Err(self.unsupported(format!("{what} on the {seg:?} segment")));
            }
        };
        if sym != 0 {
            match sym_off {
                Some(v) => off += i64::from(v),
                None => {
                    return Err(
                        self.unsupported(format!("{what}: a variable outside the {seg:?} segment"))
                    );
                }
            }
        }
        let base = match (mem, reg) {
            (_, None) => None,
            (Mem::Vmem { .. }, Some((v, true))) if !self.small => Some(v),
            (Mem::Vmem { flat }, Some((v, false))) if self.small => {
                let a = self.small_addr(Src::Reg(v), off, flat)?;
                off = 0;
                Some(a)
            }
            (Mem::Lds | Mem::Scratch, Some((v, false))) => Some(v),
            _ => {
                return Err(self.unsupported(format!(
                    "{what}: an address register of the wrong size for the machine model"
                )));
            }
        };
        // A private variable of a machine function's frame (lower/machine.rs).
        let base = if mem == Mem::Scratch && sym != 0 {
            self.frame_relative(sym, base)?
        } else {
            base
        };
        match (mem, base) {
            (Mem::Vmem { flat }, None) if self.small => Ok(Addr {
                mem,
                base: Some(self.small_addr(Src::Const(0), off, flat)?),
                off: 0,
            }),
            (Mem::Vmem { .. }, None) => {
                // An absolute 64-bit address.
                let v = self.val64(Src::Const(off as u64))?;
                Ok(Addr {
                    mem,
                    base: Some(v),
                    off: 0,
                })
            }
            (Mem::Lds | Mem::Scratch, None) => {
                // A zero base register; the offset goes in the immediate
                // fields of every access.
                let v = self.vtemp(1);
                self.emit("v_mov_b32", vec![r(v), Opnd::constant(0)])?;
                Ok(Addr {
                    mem,
                    base: Some(v),
                    off,
                })
            }
            _ => Ok(Addr { mem, base, off }),
        }
    }

    /// The 64-bit machine address of the 32-bit address `a + off` of the
    /// small machine model (PRM 2.9): the sum wraps at 32 bits, then a
    /// global, readonly or kernarg address is zero-extended (the runtime
    /// puts all of a small-model program's memory below 4 GiB) and a flat
    /// one goes through [`Cx::flat32_to_64`].
    pub(super) fn small_addr(&mut self, a: Src, off: i64, flat: bool) -> Result<VReg> {
        let a = self.sum32(a, off)?;
        if flat {
            return self.flat32_to_64(a);
        }
        let p = self.vtemp(2);
        let lo = self.val_any(a, 0);
        self.emit("v_mov_b32", vec![dw(p, 0), lo])?;
        self.emit("v_mov_b32", vec![dw(p, 1), Opnd::constant(0)])?;
        Ok(p)
    }

    /// `a + off` modulo 2^32.
    fn sum32(&mut self, a: Src, off: i64) -> Result<Src> {
        Ok(match (a, off as u32) {
            (Src::Const(c), k) => Src::Const(u64::from((c as u32).wrapping_add(k))),
            (a, 0) => a,
            (a, k) => {
                let x = self.val(a, 0)?;
                let y = self.val(Src::Const(u64::from(k)), 0)?;
                let t = self.vtemp(1);
                self.emit("v_add_u32_e64", vec![r(t), x, y])?;
                Src::Reg(t)
            }
        })
    }

    /// Register and immediate offset for the bytes at `a.off + extra`:
    /// the immediate if it fits the instruction's field, else an add.
    pub(super) fn place(&mut self, a: &Addr, extra: i64) -> Result<(VReg, i32)> {
        let off = a.off + extra;
        let (lo, hi) = match a.mem {
            Mem::Vmem { flat: true } => (0, 4095),
            Mem::Vmem { flat: false } | Mem::Scratch => (-4096, 4095),
            Mem::Lds | Mem::Kernarg => (0, 65535),
        };
        match (a.mem, a.base) {
            (Mem::Vmem { .. }, Some(b)) if (lo..=hi).contains(&off) => Ok((b, off as i32)),
            (Mem::Vmem { .. }, Some(b)) => {
                let t = self.vtemp(2);
                self.add64(
                    "v_add_co_u32_e64",
                    "v_addc_co_u32_e64",
                    t,
                    Src::Reg(b),
                    Src::Const(off as u64),
                )?;
                Ok((t, 0))
            }
            (_, Some(b)) if (lo..=hi).contains(&off) => Ok((b, off as i32)),
            (_, Some(b)) => {
                let k = self.val(Src::Const(off as u32 as u64), 0)?;
                let t = self.vtemp(1);
                self.emit("v_add_u32_e64", vec![r(t), r(b), k])?;
                Ok((t, 0))
            }
            (_, None) => Err(self.unsupported("an access without an address".into())),
        }
    }

    /// One load (`store == false`) or store of `bits` at `a + extra`;
    /// `data` is the destination or the stored value.
    pub(super) fn access(
        &mut self,
        a: &Addr,
        extra: i64,
        (bits, signed, store): (u32, bool, bool),
        data: Opnd,
        what: &str,
    ) -> Result<()> {
        let Some(suffix) = op_suffix(a.mem, bits, signed, store) else {
            return Err(self.unsupported(what.to_string()));
        };
        let (addr, imm) = self.place(a, extra)?;
        let (mn, addr_op, tail) = match a.mem {
            Mem::Vmem { flat: true } => (format!("flat_{suffix}"), pair(addr), None),
            Mem::Vmem { flat: false } => {
                (format!("global_{suffix}"), pair(addr), Some(Opnd::off()))
            }
            Mem::Scratch => (format!("scratch_{suffix}"), r(addr), Some(Opnd::off())),
            Mem::Lds => (format!("ds_{suffix}"), r(addr), None),
            Mem::Kernarg => return Err(self.unsupported(what.to_string())),
        };
        let mut ops = if store {
            vec![addr_op, data]
        } else {
            vec![data, addr_op]
        };
        ops.extend(tail);
        let mut inst = self.minst(&mn, ops)?;
        inst.mods.offset = imm;
        self.emit_inst(inst);
        Ok(())
    }

    /// The registers (or, for stores, values) of a data operand: one, or
    /// the elements of a vector operand.
    fn elements(&self, o: OperandOffset) -> Result<Vec<OperandOffset>> {
        match self.m.operand(o) {
            Ok(brig::Operand::OperandList(l)) => self
                .m
                .operand_list(l.elements)
                .map_err(|e| crate::Error::Invalid(e.to_string())),
            _ => Ok(vec![o]),
        }
    }

    /// `ld` (`store == false`) or `st`, one access per vector element.
    pub(super) fn lower_ldst(
        &mut self,
        mem: &BrigInstMem,
        ops: &[OperandOffset],
        store: bool,
        what: &str,
    ) -> Result<()> {
        let Some((kind, bits)) = mem_ty(mem.base.type_) else {
            return Err(self.unsupported(what.to_string()));
        };
        if store && mem.segment == BrigSegment::KERNARG {
            return Err(self.unsupported(format!("{what} (kernarg is read-only)")));
        }
        let mut a = self.resolve(mem.segment, ops[1], what)?;
        // A constant private address has the alignment of its value.
        let constant =
            matches!(self.m.operand(ops[1]), Ok(brig::Operand::Address(x)) if x.reg.get() == 0);
        let align = match mem.align.bytes().unwrap_or(1) {
            n if constant => n.max(1 << a.off.trailing_zeros().min(8)),
            n => n,
        };
        let elements = self.elements(ops[0])?;
        let mut regs = Vec::with_capacity(elements.len());
        for &e in &elements {
            regs.push(if store {
                self.data_reg(e, bits, what)?
            } else {
                self.dst(e)?
            });
        }
        // A load that overwrites its own address register before the last
        // element is accessed reads the base from a copy.
        if let Some(b) = a.base
            && !store
            && regs.contains(&b)
        {
            let w = self.f.info(b).width;
            let t = self.vtemp(w);
            for i in 0..w {
                self.emit("v_mov_b32", vec![dw(t, i), dw(b, i)])?;
            }
            a.base = Some(t);
        }
        if matches!(a.mem, Mem::Vmem { .. }) && regs.len() > 1 && matches!(bits, 32 | 64) {
            return self.vmem_vector(&a, &regs, bits, store, what);
        }
        let spec = (bits, kind == Kind::S && !store, store);
        for (i, &v) in regs.iter().enumerate() {
            let extra = i as i64 * i64::from(bits / 8);
            match a.mem {
                Mem::Kernarg => self.load_kernarg(a.off + extra, spec, v)?,
                Mem::Scratch if align < (bits / 8).min(4) => {
                    self.scratch_bytes(&a, extra, spec, v, what)?
                }
                // ds_read/write_b128 want 16-byte alignment: two halves.
                Mem::Lds if bits == 128 && align < 16 => {
                    for h in 0..2u8 {
                        let half = Opnd::Reg {
                            reg: v,
                            offset: 2 * h,
                            width: 2,
                        };
                        let at = extra + 8 * i64::from(h);
                        self.access(&a, at, (64, false, store), half, what)?;
                    }
                }
                _ => self.access(&a, extra, spec, wide(v, dwords(bits)), what)?,
            }
        }
        Ok(())
    }

    /// A vector of 32- or 64-bit elements in global memory: the dwords
    /// moved in as few `dwordx4`/`dwordx2`/`dword` accesses as they fill,
    /// through temporary tuples.
    fn vmem_vector(
        &mut self,
        a: &Addr,
        regs: &[VReg],
        bits: u32,
        store: bool,
        what: &str,
    ) -> Result<()> {
        let per = dwords(bits);
        let parts: Vec<(VReg, u8)> = regs
            .iter()
            .flat_map(|&v| (0..per).map(move |i| (v, i)))
            .collect();
        let mut i = 0;
        while i < parts.len() {
            let w = match parts.len() - i {
                4.. => 4,
                2 | 3 => 2,
                _ => 1,
            };
            let t = self.vtemp(w as u8);
            let chunk = &parts[i..i + w];
            if store {
                for (j, &(v, d)) in chunk.iter().enumerate() {
                    self.emit("v_mov_b32", vec![dw(t, j as u8), dw(v, d)])?;
                }
            }
            let spec = (32 * w as u32, false, store);
            self.access(a, 4 * i as i64, spec, wide(t, w as u8), what)?;
            if !store {
                for (j, &(v, d)) in chunk.iter().enumerate() {
                    self.emit("v_mov_b32", vec![dw(v, d), dw(t, j as u8)])?;
                }
            }
            i += w;
        }
        Ok(())
    }

    /// A possibly unaligned private access, byte by byte: loads assemble
    /// the bytes with `v_lshl_or_b32` (then sign-extend `s16`), stores
    /// shift each byte down.
    fn scratch_bytes(
        &mut self,
        a: &Addr,
        extra: i64,
        (bits, signed, store): (u32, bool, bool),
        v: VReg,
        what: &str,
    ) -> Result<()> {
        for d in 0..dwords(bits) {
            let bytes = (bits / 8).min(4);
            for b in 0..bytes {
                let at = extra + i64::from(d) * 4 + i64::from(b);
                let t = self.vtemp(1);
                if store {
                    self.emit(
                        "v_lshrrev_b32_e64",
                        vec![r(t), Opnd::constant(8 * b), dw(v, d)],
                    )?;
                    self.access(a, at, (8, false, true), r(t), what)?;
                } else if b == 0 {
                    self.access(a, at, (8, false, false), dw(v, d), what)?;
                } else {
                    self.access(a, at, (8, false, false), r(t), what)?;
                    let k = self.val(Src::Const(u64::from(8 * b)), 0)?;
                    self.emit("v_lshl_or_b32", vec![dw(v, d), r(t), k, dw(v, d)])?;
                }
            }
        }
        if !store && signed && bits == 16 {
            self.emit(
                "v_bfe_i32",
                vec![r(v), r(v), Opnd::constant(0), Opnd::constant(16)],
            )?;
        }
        Ok(())
    }

    /// A kernarg load of `bits` at byte `at` of the kernarg segment into
    /// `d`: the aligned dwords that hold it, then each result dword cut
    /// out of two of them (`v_alignbit_b32`) or a field extracted.
    fn load_kernarg(
        &mut self,
        at: i64,
        (bits, signed, _): (u32, bool, bool),
        d: VReg,
    ) -> Result<()> {
        let kp = self.input(self.kernarg_ptr, "the kernarg segment pointer")?;
        let base = at & !3;
        let shift = ((at & 3) * 8) as u32;
        let bytes = bits / 8;
        let n = ((at & 3) as u32 + bytes).div_ceil(4) as u8;
        if shift == 0 && bits >= 32 {
            let s = self.stemp(n);
            let mn = match n {
                1 => "s_load_dword",
                2 => "s_load_dwordx2",
                _ => "s_load_dwordx4",
            };
            self.emit(mn, vec![wide(s, n), pair(kp), Opnd::imm(base)])?;
            for i in 0..n {
                self.emit("v_mov_b32", vec![dw(d, i), dw(s, i)])?;
            }
            return Ok(());
        }
        // Unaligned or sub-dword: dword by dword into VGPRs.
        let src = self.vtemp(n);
        for i in 0..n {
            let s = self.stemp(1);
            self.emit(
                "s_load_dword",
                vec![r(s), pair(kp), Opnd::imm(base + 4 * i64::from(i))],
            )?;
            self.emit("v_mov_b32", vec![dw(src, i), r(s)])?;
        }
        if bits < 32 {
            // The field, from one dword or straddling two.
            let (t, at) = if n > 1 {
                let t = self.vtemp(1);
                let k = self.val(Src::Const(u64::from(shift)), 0)?;
                self.emit("v_alignbit_b32", vec![r(t), dw(src, 1), dw(src, 0), k])?;
                (r(t), 0)
            } else {
                (dw(src, 0), shift)
            };
            let mn = if signed { "v_bfe_i32" } else { "v_bfe_u32" };
            return self.emit(mn, vec![r(d), t, Opnd::constant(at), Opnd::constant(bits)]);
        }
        for i in 0..dwords(bits) {
            let k = self.val(Src::Const(u64::from(shift)), 0)?;
            self.emit(
                "v_alignbit_b32",
                vec![dw(d, i), dw(src, i + 1), dw(src, i), k],
            )?;
        }
        Ok(())
    }

    /// `lda`: the segment address of the expression (32-bit for group and
    /// private, and for everything in the small machine model; 64-bit for
    /// global, readonly and kernarg in the large one).
    pub(super) fn lower_lda(
        &mut self,
        a: &BrigInstAddr,
        ops: &[OperandOffset],
        what: &str,
    ) -> Result<()> {
        let wide_dst = match a.base.type_ {
            BrigType::U32 => false,
            BrigType::U64 => true,
            _ => return Err(self.unsupported(what.to_string())),
        };
        let d = self.dst(ops[0])?;
        if self.small && matches!(a.segment, BrigSegment::FLAT | BrigSegment::NONE) {
            // A 32-bit flat address expression is its own value.
            let Ok(brig::Operand::Address(x)) = self.m.operand(ops[1]) else {
                return Err(self.unsupported(format!("{what}: this address operand")));
            };
            let base = self
                .addr_reg(x.reg, what)?
                .map_or(Src::Const(0), |(v, _)| Src::Reg(v));
            let v = self.sum32(base, x.offset.get() as i64)?;
            let v = self.val_any(v, 0);
            return self.emit("v_mov_b32", vec![dw(d, 0), v]);
        }
        let addr = self.resolve(a.segment, ops[1], what)?;
        // 64-bit base and offset; a small-model address is the low dword.
        let (b, off) = match addr.mem {
            Mem::Kernarg => {
                let kp = self.input(self.kernarg_ptr, "the kernarg segment pointer")?;
                let k = self.vtemp(2);
                self.emit("v_mov_b32", vec![dw(k, 0), dw(kp, 0)])?;
                self.emit("v_mov_b32", vec![dw(k, 1), dw(kp, 1)])?;
                (k, addr.off)
            }
            Mem::Vmem { .. } => {
                let (b, imm) = self.place(&addr, 0)?;
                (b, i64::from(imm))
            }
            Mem::Lds | Mem::Scratch => {
                let (b, imm) = self.place(&addr, 0)?;
                if imm == 0 {
                    self.emit("v_mov_b32", vec![dw(d, 0), r(b)])?;
                } else {
                    let k = self.val(Src::Const(imm as u32 as u64), 0)?;
                    self.emit("v_add_u32_e64", vec![dw(d, 0), r(b), k])?;
                }
                if wide_dst {
                    self.emit("v_mov_b32", vec![dw(d, 1), Opnd::constant(0)])?;
                }
                return Ok(());
            }
        };
        if wide_dst {
            return self.add_const64(d, b, off);
        }
        let v = self.sum32(Src::Reg(b), off)?;
        let v = self.val_any(v, 0);
        self.emit("v_mov_b32", vec![dw(d, 0), v])
    }

    /// `d = b + k` on 64 bits.
    fn add_const64(&mut self, d: VReg, b: VReg, k: i64) -> Result<()> {
        if k == 0 {
            self.emit("v_mov_b32", vec![dw(d, 0), dw(b, 0)])?;
            return self.emit("v_mov_b32", vec![dw(d, 1), dw(b, 1)]);
        }
        self.add64(
            "v_add_co_u32_e64",
            "v_addc_co_u32_e64",
            d,
            Src::Reg(b),
            Src::Const(k as u64),
        )
    }
}
