//! The state of one wavefront (wave64): scalar and vector register files,
//! EXEC, VCC, SCC, M0, MODE, the program counter, and the operand access
//! every instruction family shares.
//!
//! Scalar state lives in one array indexed by the 7-bit scalar operand
//! code (`s0`–`s101`, `flat_scratch` 102–103, `xnack_mask` 104–105, `vcc`
//! 106–107, `ttmp0`–`ttmp15` 108–123, `m0` 124, `exec` 126–127), so reading
//! an operand is one index. Vector registers are stored register-major
//! (`v[n][lane]`) so that lane loops run over contiguous memory.

use amdgpu_isa::gfx9::Operand;

/// Lanes in a wave.
pub const LANES: usize = 64;

/// One 32-bit value per lane.
pub type Lanes = [u32; LANES];

/// Scalar operand code of `flat_scratch_lo`.
pub const FLAT_SCRATCH: usize = 102;
/// Scalar operand code of `xnack_mask_lo`.
pub const XNACK_MASK: usize = 104;
/// Scalar operand code of `vcc_lo`.
pub const VCC: usize = 106;
/// Scalar operand code of `ttmp0`.
pub const TTMP: usize = 108;
/// Scalar operand code of `m0`.
pub const M0: usize = 124;
/// Scalar operand code of `exec_lo`.
pub const EXEC: usize = 126;

/// Number of VGPRs (and of AGPRs) addressable per wave.
pub const VGPRS: usize = 256;

/// How a source operand is typed, which decides the value of inline
/// constants and literals (AMD GCN3/Vega ISA "Scalar and vector operands").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// 16-bit float: float constants are f16 bit patterns.
    F16,
    /// 16-bit integer (constants as 32-bit integers, truncated by the user).
    B16,
    /// 32-bit integer or float: float constants are f32 bit patterns.
    B32,
    /// 64-bit integer: integer constants sign-extended, float constants
    /// f64 bit patterns, literals zero-extended.
    B64,
    /// 64-bit float: float constants are f64 bit patterns, a literal is the
    /// high dword.
    F64,
}

impl Ty {
    /// Whether the operand is 64 bits wide.
    pub fn is_64(self) -> bool {
        matches!(self, Ty::B64 | Ty::F64)
    }
}

/// Base of the group (LDS) aperture in the flat address space (the value
/// ROCm's KFD uses on GFX9: `1 << 48`).
pub const SHARED_APERTURE: u64 = 1 << 48;
/// Base of the private (scratch) aperture in the flat address space (`2 << 48`).
pub const PRIVATE_APERTURE: u64 = 2 << 48;
/// Size of each aperture (4 GiB).
pub const APERTURE_SIZE: u64 = 1 << 32;

/// Value of inline constant `code` (128–248) for an operand of type `ty`.
pub fn inline_constant(code: u16, ty: Ty) -> Option<u64> {
    let int = |v: i64| {
        Some(match ty {
            Ty::B64 | Ty::F64 => v as u64,
            _ => u64::from(v as u32),
        })
    };
    // (f16, f32, f64) bit patterns of the float constants 240–248.
    const FLOATS: [(u16, u32, u64); 9] = [
        (0x3800, 0x3f00_0000, 0x3fe0_0000_0000_0000),
        (0xb800, 0xbf00_0000, 0xbfe0_0000_0000_0000),
        (0x3c00, 0x3f80_0000, 0x3ff0_0000_0000_0000),
        (0xbc00, 0xbf80_0000, 0xbff0_0000_0000_0000),
        (0x4000, 0x4000_0000, 0x4000_0000_0000_0000),
        (0xc000, 0xc000_0000, 0xc000_0000_0000_0000),
        (0x4400, 0x4080_0000, 0x4010_0000_0000_0000),
        (0xc400, 0xc080_0000, 0xc010_0000_0000_0000),
        (0x3118, 0x3e22_f983, 0x3fc4_5f30_6dc9_c882),
    ];
    match code {
        128..=192 => int(i64::from(code) - 128),
        193..=208 => int(192 - i64::from(code)),
        240..=248 => {
            let (h, s, d) = FLOATS[usize::from(code - 240)];
            // A 64-bit operand (integer or float: `s_mov_b64 s[0:1], 1.0`)
            // gets the f64 pattern.
            Some(match ty {
                Ty::F16 => u64::from(h),
                Ty::F64 | Ty::B64 => d,
                _ => u64::from(s),
            })
        }
        _ => None,
    }
}

/// A wavefront's architectural state.
#[derive(Clone)]
pub struct Wave {
    /// Scalar registers by operand code (see the module docs).
    pub s: [u32; 128],
    /// Vector registers, `v[n][lane]`.
    pub v: Vec<Lanes>,
    /// Accumulation registers (gfx908+), `a[n][lane]`.
    pub a: Vec<Lanes>,
    /// Address of the next instruction to execute. While an instruction
    /// executes it already points past it (branches overwrite it).
    pub pc: u64,
    /// Scalar condition code.
    pub scc: bool,
    /// `MODE` hardware register (round and denorm modes, DX10 clamp, IEEE).
    pub mode: u32,
    /// `TRAPSTS` hardware register.
    pub trapsts: u32,
    /// `HW_ID`-style identity: index of this wave in its work-group.
    pub wave_in_group: u32,
    /// Work-group ID.
    pub workgroup_id: [u32; 3],
    /// Base of this wave's private memory (scratch) for flat and scratch
    /// instructions: `flat_scratch` holds it too once the kernel sets it up.
    pub scratch_base: u64,
    /// Whether the wave executed `s_endpgm`.
    pub ended: bool,
    /// Whether the wave waits at `s_barrier`.
    pub at_barrier: bool,
    /// Whether the wave executed `s_sleep` and gives the other waves of
    /// its work-group a turn (cleared when the scheduler takes it back).
    pub yielded: bool,
    /// `s_sleep` instructions executed.
    pub sleeps: u64,
    /// Sleep time so far, in units of 64 clocks (`s_sleep`'s operand
    /// summed; at least 1 each): the watchdog counts it as instructions.
    pub slept: u64,
    /// Wave-instructions executed.
    pub instructions: u64,
    /// Lane operations executed (active lanes summed over vector instructions).
    pub lane_ops: u64,
}

impl std::fmt::Debug for Wave {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Wave")
            .field("pc", &format_args!("{:#x}", self.pc))
            .field("exec", &format_args!("{:#x}", self.exec()))
            .field("workgroup_id", &self.workgroup_id)
            .field("wave_in_group", &self.wave_in_group)
            .finish_non_exhaustive()
    }
}

impl Default for Wave {
    fn default() -> Self {
        Wave::new(false)
    }
}

impl Wave {
    /// A wave with every register zero (and AGPRs if `agprs`).
    pub fn new(agprs: bool) -> Wave {
        Wave {
            s: [0; 128],
            v: vec![[0; LANES]; VGPRS],
            a: if agprs {
                vec![[0; LANES]; VGPRS]
            } else {
                Vec::new()
            },
            pc: 0,
            scc: false,
            mode: 0,
            trapsts: 0,
            wave_in_group: 0,
            workgroup_id: [0; 3],
            scratch_base: 0,
            ended: false,
            at_barrier: false,
            yielded: false,
            sleeps: 0,
            slept: 0,
            instructions: 0,
            lane_ops: 0,
        }
    }

    /// A 64-bit scalar register pair starting at operand code `code`.
    #[inline]
    pub fn s64(&self, code: usize) -> u64 {
        u64::from(self.s[code]) | u64::from(self.s[(code + 1) & 127]) << 32
    }

    /// Writes a 64-bit scalar register pair.
    #[inline]
    pub fn set_s64(&mut self, code: usize, value: u64) {
        self.s[code] = value as u32;
        self.s[(code + 1) & 127] = (value >> 32) as u32;
    }

    /// The EXEC mask.
    #[inline]
    pub fn exec(&self) -> u64 {
        self.s64(EXEC)
    }

    /// Sets the EXEC mask.
    #[inline]
    pub fn set_exec(&mut self, value: u64) {
        self.set_s64(EXEC, value);
    }

    /// VCC.
    #[inline]
    pub fn vcc(&self) -> u64 {
        self.s64(VCC)
    }

    /// Sets VCC.
    #[inline]
    pub fn set_vcc(&mut self, value: u64) {
        self.set_s64(VCC, value);
    }

    /// M0.
    #[inline]
    pub fn m0(&self) -> u32 {
        self.s[M0]
    }

    /// Value of a scalar source: an SGPR or special register (code < 128),
    /// an inline constant, a special source, or a literal; 64-bit when `ty`
    /// is. VGPR and AGPR operands are not scalar: `None`.
    #[inline]
    pub fn scalar(&self, op: &Operand, ty: Ty) -> Option<u64> {
        match *op {
            Operand::Src { code, .. } => self.scalar_code(code, ty),
            Operand::Literal(l) => Some(match ty {
                Ty::F64 => u64::from(l) << 32,
                _ => u64::from(l),
            }),
            Operand::Imm(i) => Some(i as u64),
            Operand::Agpr { .. } | Operand::Off => None,
        }
    }

    /// Value of scalar source `code` (0–254, not VGPRs) as type `ty`.
    pub fn scalar_code(&self, code: u16, ty: Ty) -> Option<u64> {
        let c = usize::from(code);
        match code {
            0..=127 => Some(if ty.is_64() {
                self.s64(c)
            } else {
                u64::from(self.s[c])
            }),
            128..=208 | 240..=248 => inline_constant(code, ty),
            // src_shared_base/limit, src_private_base/limit: the aperture
            // as a 64-bit value, or its high dword as a 32-bit one.
            235..=238 => {
                let base = if code < 237 {
                    SHARED_APERTURE
                } else {
                    PRIVATE_APERTURE
                };
                let v = if code % 2 == 1 {
                    base
                } else {
                    base + APERTURE_SIZE - 1
                };
                Some(if ty.is_64() { v } else { v >> 32 })
            }
            239 => Some(0),
            251 => Some(u64::from(self.vcc() == 0)),
            252 => Some(u64::from(self.exec() == 0)),
            253 => Some(u64::from(self.scc)),
            _ => None,
        }
    }

    /// Writes scalar destination `code` (32 or 64 bits by `is_64`).
    #[inline]
    pub fn write_scalar(&mut self, op: &Operand, value: u64, is_64: bool) {
        if let Operand::Src {
            code: c @ 0..=127, ..
        } = *op
        {
            if c == 125 {
                return;
            }
            let c = usize::from(c);
            self.s[c] = value as u32;
            if is_64 {
                self.s[(c + 1) & 127] = (value >> 32) as u32;
            }
        }
    }

    /// Per-lane 32-bit values of a vector-instruction source (VGPR, AGPR,
    /// or a scalar broadcast to every lane). `ty` types constants.
    #[inline]
    pub fn lanes(&self, op: &Operand, ty: Ty) -> Lanes {
        match *op {
            Operand::Src {
                code: c @ 256.., ..
            } => self.v[usize::from(c - 256)],
            Operand::Agpr { num, .. } => {
                self.a.get(usize::from(num)).copied().unwrap_or([0; LANES])
            }
            _ => [self.scalar(op, ty).unwrap_or(0) as u32; LANES],
        }
    }

    /// Dword `i` of a vector source tuple (VGPR/AGPR `n + i`, or dword `i`
    /// of a 64-bit scalar source), per lane.
    #[inline]
    pub fn lanes_at(&self, op: &Operand, i: usize, ty: Ty) -> Lanes {
        match *op {
            Operand::Src {
                code: c @ 256.., ..
            } => self.v[(usize::from(c - 256) + i) % VGPRS],
            Operand::Agpr { num, .. } => self
                .a
                .get((usize::from(num) + i) % VGPRS)
                .copied()
                .unwrap_or([0; LANES]),
            _ => [(self.scalar(op, ty).unwrap_or(0) >> (32 * i)) as u32; LANES],
        }
    }

    /// Per-lane 64-bit values of a vector source.
    #[inline]
    pub fn lanes64(&self, op: &Operand, ty: Ty) -> [u64; LANES] {
        let mut out = [0u64; LANES];
        match *op {
            Operand::Src { code: 256.., .. } | Operand::Agpr { .. } => {
                let lo = self.lanes_at(op, 0, ty);
                let hi = self.lanes_at(op, 1, ty);
                for l in 0..LANES {
                    out[l] = u64::from(lo[l]) | u64::from(hi[l]) << 32;
                }
            }
            _ => out = [self.scalar(op, ty).unwrap_or(0); LANES],
        }
        out
    }

    /// The register file and index of a vector destination.
    #[inline]
    fn dest(&mut self, op: &Operand) -> Option<(&mut Vec<Lanes>, usize)> {
        match *op {
            Operand::Src {
                code: c @ 256.., ..
            } => Some((&mut self.v, usize::from(c - 256))),
            Operand::Agpr { num, .. } => Some((&mut self.a, usize::from(num))),
            _ => None,
        }
    }

    /// Writes dword `i` of a vector destination in the lanes set in EXEC.
    #[inline]
    pub fn write_lanes_at(&mut self, op: &Operand, i: usize, value: &Lanes) {
        let exec = self.exec();
        if let Some((file, n)) = self.dest(op)
            && let Some(reg) = file.get_mut((n + i) % VGPRS)
        {
            if exec == u64::MAX {
                *reg = *value;
            } else {
                // Branch-free blend (vectorizes): lanes off in EXEC keep their value.
                for l in 0..LANES {
                    let keep = (exec >> l & 1) as u32 ^ 1;
                    let m = keep.wrapping_neg();
                    reg[l] = (value[l] & !m) | (reg[l] & m);
                }
            }
        }
    }

    /// Writes a 32-bit vector destination in the lanes set in EXEC.
    #[inline]
    pub fn write_lanes(&mut self, op: &Operand, value: &Lanes) {
        self.write_lanes_at(op, 0, value);
    }

    /// Writes a 64-bit vector destination in the lanes set in EXEC.
    #[inline]
    pub fn write_lanes64(&mut self, op: &Operand, value: &[u64; LANES]) {
        let mut lo = [0u32; LANES];
        let mut hi = [0u32; LANES];
        for l in 0..LANES {
            lo[l] = value[l] as u32;
            hi[l] = (value[l] >> 32) as u32;
        }
        self.write_lanes_at(op, 0, &lo);
        self.write_lanes_at(op, 1, &hi);
    }

    /// Writes one lane of a vector destination (ignores EXEC).
    #[inline]
    pub fn write_lane(&mut self, op: &Operand, i: usize, lane: usize, value: u32) {
        if let Some((file, n)) = self.dest(op)
            && let Some(reg) = file.get_mut((n + i) % VGPRS)
        {
            reg[lane] = value;
        }
    }

    /// Round mode of f32 operations (MODE bits 1:0: 0 nearest even, 1 +inf,
    /// 2 -inf, 3 toward zero).
    pub fn round_mode_32(&self) -> u32 {
        self.mode & 3
    }

    /// Round mode of f16 and f64 operations (MODE bits 3:2).
    pub fn round_mode_16_64(&self) -> u32 {
        self.mode >> 2 & 3
    }

    /// Denorm mode of f32 operations (MODE bits 5:4; bit 0: keep input
    /// denormals, bit 1: keep output denormals).
    pub fn denorm_mode_32(&self) -> u32 {
        self.mode >> 4 & 3
    }

    /// Denorm mode of f16 and f64 operations (MODE bits 7:6).
    pub fn denorm_mode_16_64(&self) -> u32 {
        self.mode >> 6 & 3
    }

    /// MODE.DX10_CLAMP.
    pub fn dx10_clamp(&self) -> bool {
        self.mode >> 8 & 1 != 0
    }

    /// MODE.IEEE.
    pub fn ieee(&self) -> bool {
        self.mode >> 9 & 1 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_follow_the_operand_type() {
        assert_eq!(inline_constant(128, Ty::B32), Some(0));
        assert_eq!(inline_constant(192, Ty::B32), Some(64));
        assert_eq!(inline_constant(193, Ty::B32), Some(0xffff_ffff));
        assert_eq!(inline_constant(208, Ty::B64), Some((-16i64) as u64));
        assert_eq!(inline_constant(242, Ty::B32), Some(0x3f80_0000));
        assert_eq!(inline_constant(242, Ty::F16), Some(0x3c00));
        assert_eq!(inline_constant(247, Ty::F64), Some(0xc010_0000_0000_0000));
        assert_eq!(inline_constant(248, Ty::B32), Some(0x3e22_f983));
        assert_eq!(inline_constant(209, Ty::B32), None);
        let mut w = Wave::new(false);
        w.set_exec(0b101);
        let v1 = Operand::Src {
            code: 257,
            width: 1,
        };
        w.write_lanes(&v1, &[7; LANES]);
        assert_eq!(&w.v[1][..4], &[7, 0, 7, 0]);
        let lit = Operand::Literal(0x4000_0000);
        assert_eq!(w.scalar(&lit, Ty::F64), Some(0x4000_0000_0000_0000));
        assert_eq!(
            w.scalar(
                &Operand::Src {
                    code: 235,
                    width: 1
                },
                Ty::B32
            ),
            Some(SHARED_APERTURE >> 32)
        );
        assert_eq!(
            w.scalar(
                &Operand::Src {
                    code: 252,
                    width: 1
                },
                Ty::B32
            ),
            Some(0)
        );
    }
}
