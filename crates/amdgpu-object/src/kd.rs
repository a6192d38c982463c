//! The 64-byte code object v3+ kernel descriptor (`kernel_descriptor_t`,
//! AMDGPUUsage "Kernel Descriptor"), typed views of its bit fields
//! (`compute_pgm_rsrc1/2/3`, `kernel_code_properties`, `kernarg_preload`),
//! and a printer of the descriptor as the `.amdhsa_*` directives that
//! `llvm-objdump -D --disassemble-symbols=K.kd` prints.
//!
//! Offsets (bytes): 0 group_segment_fixed_size, 4 private_segment_fixed_size,
//! 8 kernarg_size, 12 reserved, 16 kernel_code_entry_byte_offset (i64),
//! 24 reserved (20), 44 compute_pgm_rsrc3, 48 compute_pgm_rsrc1,
//! 52 compute_pgm_rsrc2, 56 kernel_code_properties (u16),
//! 58 kernarg_preload (u16), 60 reserved (4).

use std::fmt::Write as _;

use zerocopy::byteorder::little_endian::{I64, U16, U32};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use crate::error::{Error, Result};
use crate::target::{Generation, Processor, ProcessorExt};

/// `kernel_descriptor_t`: exactly as laid out in memory (little-endian,
/// 64 bytes, 64-byte aligned in the code object).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    FromBytes,
    IntoBytes,
    KnownLayout,
    Immutable,
    Unaligned,
)]
#[repr(C)]
#[allow(non_camel_case_types)]
pub struct kernel_descriptor_t {
    /// Fixed LDS bytes per work-group (not including dynamic LDS).
    pub group_segment_fixed_size: U32,
    /// Fixed private (scratch) bytes per work-item.
    pub private_segment_fixed_size: U32,
    /// Kernarg segment size in bytes (v4+; was reserved in v3).
    pub kernarg_size: U32,
    /// Reserved, must be 0.
    pub reserved0: [u8; 4],
    /// Byte offset (may be negative) from the descriptor to the kernel entry.
    pub kernel_code_entry_byte_offset: I64,
    /// Reserved, must be 0.
    pub reserved1: [u8; 20],
    /// `COMPUTE_PGM_RSRC3` (GFX90A+/GFX10+), see [`ComputePgmRsrc3Gfx90a`] and [`ComputePgmRsrc3Gfx10`].
    pub compute_pgm_rsrc3: U32,
    /// `COMPUTE_PGM_RSRC1`, see [`ComputePgmRsrc1`].
    pub compute_pgm_rsrc1: U32,
    /// `COMPUTE_PGM_RSRC2`, see [`ComputePgmRsrc2`].
    pub compute_pgm_rsrc2: U32,
    /// Which user SGPRs are set up, wave32, dynamic stack; see [`KernelCodeProperties`].
    pub kernel_code_properties: U16,
    /// Kernarg preload specification; see [`KernargPreload`].
    pub kernarg_preload: U16,
    /// Reserved, must be 0.
    pub reserved3: [u8; 4],
}

const _: () = assert!(size_of::<kernel_descriptor_t>() == 64);

/// Size of a kernel descriptor in bytes.
pub const KERNEL_DESCRIPTOR_SIZE: usize = 64;

macro_rules! bitfields {
    (
        $(#[$m:meta])*
        $name:ident: $ty:ty {
            $( $(#[$fm:meta])* $field:ident, $set:ident: $lo:literal, $width:literal; )*
        }
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
        pub struct $name(pub $ty);

        impl $name {
            $(
                $(#[$fm])*
                #[doc = concat!("Bits ", stringify!($lo), " (width ", stringify!($width), ").")]
                pub const fn $field(self) -> $ty {
                    (self.0 >> $lo) & ((1 << $width) - 1)
                }

                #[doc = concat!("Sets `", stringify!($field), "` (value truncated to the field).")]
                pub fn $set(&mut self, value: $ty) -> &mut Self {
                    let mask: $ty = ((1 << $width) - 1) << $lo;
                    self.0 = (self.0 & !mask) | ((value << $lo) & mask);
                    self
                }
            )*
        }
    };
}

bitfields! {
    /// `compute_pgm_rsrc1` (all generations; some bits are per-generation).
    ComputePgmRsrc1: u32 {
        /// `GRANULATED_WORKITEM_VGPR_COUNT`: VGPR blocks used minus 1.
        granulated_workitem_vgpr_count, set_granulated_workitem_vgpr_count: 0, 6;
        /// `GRANULATED_WAVEFRONT_SGPR_COUNT`: SGPR blocks minus 1 (GFX6-9; 0 on GFX10+).
        granulated_wavefront_sgpr_count, set_granulated_wavefront_sgpr_count: 6, 4;
        /// `PRIORITY`, must be 0.
        priority, set_priority: 10, 2;
        /// `FLOAT_ROUND_MODE_32`.
        float_round_mode_32, set_float_round_mode_32: 12, 2;
        /// `FLOAT_ROUND_MODE_16_64`.
        float_round_mode_16_64, set_float_round_mode_16_64: 14, 2;
        /// `FLOAT_DENORM_MODE_32`.
        float_denorm_mode_32, set_float_denorm_mode_32: 16, 2;
        /// `FLOAT_DENORM_MODE_16_64`.
        float_denorm_mode_16_64, set_float_denorm_mode_16_64: 18, 2;
        /// `PRIV`, must be 0.
        priv_, set_priv: 20, 1;
        /// `ENABLE_DX10_CLAMP` (GFX6-GFX11; `WG_RR_EN` on GFX12).
        enable_dx10_clamp, set_enable_dx10_clamp: 21, 1;
        /// `DEBUG_MODE`, must be 0.
        debug_mode, set_debug_mode: 22, 1;
        /// `ENABLE_IEEE_MODE` (GFX6-GFX11).
        enable_ieee_mode, set_enable_ieee_mode: 23, 1;
        /// `BULKY`, must be 0.
        bulky, set_bulky: 24, 1;
        /// `CDBG_USER`, must be 0.
        cdbg_user, set_cdbg_user: 25, 1;
        /// `FP16_OVFL` (GFX9+).
        fp16_ovfl, set_fp16_ovfl: 26, 1;
        /// Reserved bits 27-28.
        reserved_27_28, set_reserved_27_28: 27, 2;
        /// `WGP_MODE` (GFX10+).
        wgp_mode, set_wgp_mode: 29, 1;
        /// `MEM_ORDERED` (GFX10+).
        mem_ordered, set_mem_ordered: 30, 1;
        /// `FWD_PROGRESS` (GFX10+).
        fwd_progress, set_fwd_progress: 31, 1;
    }
}

bitfields! {
    /// `compute_pgm_rsrc2`.
    ComputePgmRsrc2: u32 {
        /// `ENABLE_PRIVATE_SEGMENT` (was `ENABLE_SGPR_PRIVATE_SEGMENT_WAVEFRONT_OFFSET`).
        enable_private_segment, set_enable_private_segment: 0, 1;
        /// `USER_SGPR_COUNT`: user SGPRs set up; system SGPRs start here.
        user_sgpr_count, set_user_sgpr_count: 1, 5;
        /// `ENABLE_TRAP_HANDLER`, must be 0 (CP sets it).
        enable_trap_handler, set_enable_trap_handler: 6, 1;
        /// `ENABLE_SGPR_WORKGROUP_ID_X`.
        enable_sgpr_workgroup_id_x, set_enable_sgpr_workgroup_id_x: 7, 1;
        /// `ENABLE_SGPR_WORKGROUP_ID_Y`.
        enable_sgpr_workgroup_id_y, set_enable_sgpr_workgroup_id_y: 8, 1;
        /// `ENABLE_SGPR_WORKGROUP_ID_Z`.
        enable_sgpr_workgroup_id_z, set_enable_sgpr_workgroup_id_z: 9, 1;
        /// `ENABLE_SGPR_WORKGROUP_INFO`.
        enable_sgpr_workgroup_info, set_enable_sgpr_workgroup_info: 10, 1;
        /// `ENABLE_VGPR_WORKITEM_ID`: 0 = X, 1 = X+Y, 2 = X+Y+Z.
        enable_vgpr_workitem_id, set_enable_vgpr_workitem_id: 11, 2;
        /// `ENABLE_EXCEPTION_ADDRESS_WATCH`, must be 0.
        enable_exception_address_watch, set_enable_exception_address_watch: 13, 1;
        /// `ENABLE_EXCEPTION_MEMORY`, must be 0.
        enable_exception_memory, set_enable_exception_memory: 14, 1;
        /// `GRANULATED_LDS_SIZE`, must be 0 (CP computes it).
        granulated_lds_size, set_granulated_lds_size: 15, 9;
        /// `ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION`.
        enable_exception_ieee_754_fp_invalid_operation, set_enable_exception_ieee_754_fp_invalid_operation: 24, 1;
        /// `ENABLE_EXCEPTION_FP_DENORMAL_SOURCE`.
        enable_exception_fp_denormal_source, set_enable_exception_fp_denormal_source: 25, 1;
        /// `ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO`.
        enable_exception_ieee_754_fp_division_by_zero, set_enable_exception_ieee_754_fp_division_by_zero: 26, 1;
        /// `ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW`.
        enable_exception_ieee_754_fp_overflow, set_enable_exception_ieee_754_fp_overflow: 27, 1;
        /// `ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW`.
        enable_exception_ieee_754_fp_underflow, set_enable_exception_ieee_754_fp_underflow: 28, 1;
        /// `ENABLE_EXCEPTION_IEEE_754_FP_INEXACT`.
        enable_exception_ieee_754_fp_inexact, set_enable_exception_ieee_754_fp_inexact: 29, 1;
        /// `ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO`.
        enable_exception_int_divide_by_zero, set_enable_exception_int_divide_by_zero: 30, 1;
        /// Reserved bit 31 (GFX6-GFX11).
        reserved_31, set_reserved_31: 31, 1;
    }
}

bitfields! {
    /// `compute_pgm_rsrc3` for GFX90A and GFX94x.
    ComputePgmRsrc3Gfx90a: u32 {
        /// `ACCUM_OFFSET`: first AccVGPR = (value + 1) * 4.
        accum_offset, set_accum_offset: 0, 6;
        /// Reserved bits 6-15.
        reserved_6_15, set_reserved_6_15: 6, 10;
        /// `TG_SPLIT`.
        tg_split, set_tg_split: 16, 1;
        /// Reserved bits 17-31.
        reserved_17_31, set_reserved_17_31: 17, 15;
    }
}

bitfields! {
    /// `compute_pgm_rsrc3` for GFX10-GFX11.
    ComputePgmRsrc3Gfx10: u32 {
        /// `SHARED_VGPR_COUNT`.
        shared_vgpr_count, set_shared_vgpr_count: 0, 4;
        /// `INST_PREF_SIZE` (GFX11; reserved on GFX10).
        inst_pref_size, set_inst_pref_size: 4, 6;
        /// `TRAP_ON_START` (GFX11; reserved on GFX10).
        trap_on_start, set_trap_on_start: 10, 1;
        /// `TRAP_ON_END` (GFX11; reserved on GFX10).
        trap_on_end, set_trap_on_end: 11, 1;
        /// Reserved bits 12-30.
        reserved_12_30, set_reserved_12_30: 12, 19;
        /// `IMAGE_OP` (GFX11; reserved on GFX10).
        image_op, set_image_op: 31, 1;
    }
}

bitfields! {
    /// `kernel_code_properties` (16 bits).
    KernelCodeProperties: u16 {
        /// `ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER` (4 user SGPRs).
        enable_sgpr_private_segment_buffer, set_enable_sgpr_private_segment_buffer: 0, 1;
        /// `ENABLE_SGPR_DISPATCH_PTR` (2).
        enable_sgpr_dispatch_ptr, set_enable_sgpr_dispatch_ptr: 1, 1;
        /// `ENABLE_SGPR_QUEUE_PTR` (2).
        enable_sgpr_queue_ptr, set_enable_sgpr_queue_ptr: 2, 1;
        /// `ENABLE_SGPR_KERNARG_SEGMENT_PTR` (2).
        enable_sgpr_kernarg_segment_ptr, set_enable_sgpr_kernarg_segment_ptr: 3, 1;
        /// `ENABLE_SGPR_DISPATCH_ID` (2).
        enable_sgpr_dispatch_id, set_enable_sgpr_dispatch_id: 4, 1;
        /// `ENABLE_SGPR_FLAT_SCRATCH_INIT` (2).
        enable_sgpr_flat_scratch_init, set_enable_sgpr_flat_scratch_init: 5, 1;
        /// `ENABLE_SGPR_PRIVATE_SEGMENT_SIZE` (1).
        enable_sgpr_private_segment_size, set_enable_sgpr_private_segment_size: 6, 1;
        /// Reserved bits 7-9.
        reserved_7_9, set_reserved_7_9: 7, 3;
        /// `ENABLE_WAVEFRONT_SIZE32` (GFX10+).
        enable_wavefront_size32, set_enable_wavefront_size32: 10, 1;
        /// `USES_DYNAMIC_STACK`.
        uses_dynamic_stack, set_uses_dynamic_stack: 11, 1;
        /// Reserved bits 12-15.
        reserved_12_15, set_reserved_12_15: 12, 4;
    }
}

bitfields! {
    /// `kernarg_preload` (16 bits, GFX940+).
    KernargPreload: u16 {
        /// `KERNARG_PRELOAD_SPEC_LENGTH`: dwords of kernarg preloaded into user SGPRs.
        length, set_length: 0, 7;
        /// `KERNARG_PRELOAD_SPEC_OFFSET`: dword offset in the kernarg segment.
        offset, set_offset: 7, 9;
    }
}

impl kernel_descriptor_t {
    /// Reads a descriptor from the start of `bytes`; `offset` is where
    /// `bytes` starts in the file, for the error.
    pub fn read(bytes: &[u8], offset: u64) -> Result<kernel_descriptor_t> {
        kernel_descriptor_t::read_from_prefix(bytes)
            .map(|(kd, _)| kd)
            .map_err(|_| Error::Truncated {
                what: "kernel descriptor",
                offset,
                needed: KERNEL_DESCRIPTOR_SIZE as u64,
                available: bytes.len() as u64,
            })
    }

    /// The 64 bytes.
    pub fn to_bytes(&self) -> [u8; KERNEL_DESCRIPTOR_SIZE] {
        let mut out = [0; KERNEL_DESCRIPTOR_SIZE];
        out.copy_from_slice(self.as_bytes());
        out
    }

    /// Typed view of `compute_pgm_rsrc1`.
    pub fn rsrc1(&self) -> ComputePgmRsrc1 {
        ComputePgmRsrc1(self.compute_pgm_rsrc1.get())
    }
    /// Typed view of `compute_pgm_rsrc2`.
    pub fn rsrc2(&self) -> ComputePgmRsrc2 {
        ComputePgmRsrc2(self.compute_pgm_rsrc2.get())
    }
    /// `compute_pgm_rsrc3` viewed with the GFX90A/GFX94x layout.
    pub fn rsrc3_gfx90a(&self) -> ComputePgmRsrc3Gfx90a {
        ComputePgmRsrc3Gfx90a(self.compute_pgm_rsrc3.get())
    }
    /// `compute_pgm_rsrc3` viewed with the GFX10-GFX11 layout.
    pub fn rsrc3_gfx10(&self) -> ComputePgmRsrc3Gfx10 {
        ComputePgmRsrc3Gfx10(self.compute_pgm_rsrc3.get())
    }
    /// Typed view of `kernel_code_properties`.
    pub fn properties(&self) -> KernelCodeProperties {
        KernelCodeProperties(self.kernel_code_properties.get())
    }
    /// Typed view of `kernarg_preload`.
    pub fn preload(&self) -> KernargPreload {
        KernargPreload(self.kernarg_preload.get())
    }
    /// Stores a `compute_pgm_rsrc1` value.
    pub fn set_rsrc1(&mut self, v: ComputePgmRsrc1) {
        self.compute_pgm_rsrc1.set(v.0);
    }
    /// Stores a `compute_pgm_rsrc2` value.
    pub fn set_rsrc2(&mut self, v: ComputePgmRsrc2) {
        self.compute_pgm_rsrc2.set(v.0);
    }
    /// Stores a `compute_pgm_rsrc3` value (either layout).
    pub fn set_rsrc3(&mut self, v: u32) {
        self.compute_pgm_rsrc3.set(v);
    }
    /// Stores `kernel_code_properties`.
    pub fn set_properties(&mut self, v: KernelCodeProperties) {
        self.kernel_code_properties.set(v.0);
    }

    /// Whether the kernel runs in wave32 (GFX10+ only).
    pub fn wave32(&self) -> bool {
        self.properties().enable_wavefront_size32() != 0
    }

    /// VGPRs allocated per work-item as the hardware sees it:
    /// `(GRANULATED_WORKITEM_VGPR_COUNT + 1) * granule`.
    pub fn allocated_vgprs(&self, processor: &Processor) -> u32 {
        (self.rsrc1().granulated_workitem_vgpr_count() + 1)
            * processor.vgpr_encoding_granule(self.wave32())
    }

    /// Prints the descriptor as `llvm-objdump-19 -D --disassemble-symbols=NAME.kd`
    /// does (`.amdhsa_kernel NAME` … `.end_amdhsa_kernel`, tab-indented),
    /// or returns LLVM's error for reserved bits that are set. `offset` is
    /// used for the error only.
    pub fn to_directives(
        &self,
        name: &str,
        processor: &Processor,
        code_object_version: u32,
        offset: u64,
    ) -> Result<String> {
        Printer {
            kd: self,
            p: processor,
            cov: code_object_version,
        }
        .print(name)
        .map_err(|what| Error::KernelDescriptor { what, offset })
    }
}

struct Printer<'a> {
    kd: &'a kernel_descriptor_t,
    p: &'a Processor,
    cov: u32,
}

fn bit_range(mask: u32, base_bytes: u32) -> String {
    let tz = mask.trailing_zeros() + base_bytes * 8;
    let pop = mask.count_ones();
    if pop == 1 {
        format!("bit ({tz})")
    } else {
        format!("bits in range ({}:{tz})", tz + pop - 1)
    }
}

fn reserved(value: u32, mask: u32, desc: &str, msg: &str) -> Result<(), String> {
    if value & mask != 0 {
        return Err(format!(
            "kernel descriptor {desc} reserved {} set{msg}",
            bit_range(mask, 0)
        ));
    }
    Ok(())
}

fn reserved_bytes(bytes: &[u8], base: u32) -> Result<(), String> {
    if bytes.iter().any(|&b| b != 0) {
        let hi = (base + bytes.len() as u32) * 8 - 1;
        return Err(format!(
            "kernel descriptor reserved bits in range ({hi}:{}) set",
            base * 8
        ));
    }
    Ok(())
}

impl Printer<'_> {
    fn print(&self, name: &str) -> Result<String, String> {
        let kd = self.kd;
        let mut s = format!(".amdhsa_kernel {name}\n");
        let d = |s: &mut String, k: &str, v: u32| {
            let _ = writeln!(s, "\t.amdhsa_{k} {v}");
        };
        d(
            &mut s,
            "group_segment_fixed_size",
            kd.group_segment_fixed_size.get(),
        );
        d(
            &mut s,
            "private_segment_fixed_size",
            kd.private_segment_fixed_size.get(),
        );
        d(&mut s, "kernarg_size", kd.kernarg_size.get());
        reserved_bytes(&kd.reserved0, 12)?;
        reserved_bytes(&kd.reserved1, 24)?;
        self.rsrc3(&mut s)?;
        self.rsrc1(&mut s)?;
        self.rsrc2(&mut s)?;
        self.properties(&mut s)?;
        let pre = kd.preload();
        if pre.length() != 0 {
            d(
                &mut s,
                "user_sgpr_kernarg_preload_length",
                u32::from(pre.length()),
            );
        }
        if pre.offset() != 0 {
            d(
                &mut s,
                "user_sgpr_kernarg_preload_offset",
                u32::from(pre.offset()),
            );
        }
        reserved_bytes(&kd.reserved3, 60)?;
        s.push_str(".end_amdhsa_kernel\n");
        Ok(s)
    }

    fn rsrc3(&self, s: &mut String) -> Result<(), String> {
        let v = self.kd.compute_pgm_rsrc3.get();
        let generation = self.p.generation;
        if self.p.is_gfx90a_family() {
            let r = ComputePgmRsrc3Gfx90a(v);
            let _ = writeln!(s, "\t.amdhsa_accum_offset {}", (r.accum_offset() + 1) * 4);
            let _ = writeln!(s, "\t.amdhsa_tg_split {}", r.tg_split());
            reserved(
                v,
                0x0000_ffc0,
                "COMPUTE_PGM_RSRC3",
                ", must be zero on gfx90a",
            )?;
            reserved(
                v,
                0xfffe_0000,
                "COMPUTE_PGM_RSRC3",
                ", must be zero on gfx90a",
            )?;
        } else if generation >= Generation::Gfx10_1 {
            let r = ComputePgmRsrc3Gfx10(v);
            if generation < Generation::Gfx12 {
                if self.kd.wave32() {
                    let _ = writeln!(s, "\t; SHARED_VGPR_COUNT {}", r.shared_vgpr_count());
                } else {
                    let _ = writeln!(s, "\t.amdhsa_shared_vgpr_count {}", r.shared_vgpr_count());
                }
            } else {
                reserved(v, 0xf, "COMPUTE_PGM_RSRC3", ", must be zero on gfx12+")?;
            }
            if generation == Generation::Gfx11 {
                let _ = writeln!(s, "\t; INST_PREF_SIZE {}", r.inst_pref_size());
                let _ = writeln!(s, "\t; TRAP_ON_START {}", r.trap_on_start());
                let _ = writeln!(s, "\t; TRAP_ON_END {}", r.trap_on_end());
            } else if generation >= Generation::Gfx12 {
                let _ = writeln!(s, "\t; INST_PREF_SIZE {}", (v >> 4) & 0xff);
            } else {
                reserved(v, 0xff0, "COMPUTE_PGM_RSRC3", ", must be zero on gfx10")?;
            }
            reserved(v, 0x1000, "COMPUTE_PGM_RSRC3", ", must be zero on gfx10+")?;
            if generation >= Generation::Gfx12 {
                let _ = writeln!(s, "\t; GLG_EN {}", (v >> 13) & 1);
            } else {
                reserved(
                    v,
                    0x2000,
                    "COMPUTE_PGM_RSRC3",
                    ", must be zero on gfx10 or gfx11",
                )?;
            }
            reserved(
                v,
                0x003f_c000,
                "COMPUTE_PGM_RSRC3",
                ", must be zero on gfx10+",
            )?;
            reserved(
                v,
                0x7fc0_0000,
                "COMPUTE_PGM_RSRC3",
                ", must be zero on gfx10+",
            )?;
            if generation >= Generation::Gfx11 {
                let _ = writeln!(s, "\t; IMAGE_OP {}", r.image_op());
            } else {
                reserved(
                    v,
                    0x8000_0000,
                    "COMPUTE_PGM_RSRC3",
                    ", must be zero on gfx10",
                )?;
            }
        } else if v != 0 {
            return Err("kernel descriptor COMPUTE_PGM_RSRC3 must be all zero before gfx9".into());
        }
        Ok(())
    }

    fn rsrc1(&self, s: &mut String) -> Result<(), String> {
        let v = self.kd.compute_pgm_rsrc1.get();
        let r = ComputePgmRsrc1(v);
        let generation = self.p.generation;
        let _ = writeln!(
            s,
            "\t.amdhsa_next_free_vgpr {}",
            self.kd.allocated_vgprs(self.p)
        );
        if generation >= Generation::Gfx10_1 {
            reserved(
                v,
                0x3c0,
                "COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT",
                ", must be zero on gfx10+",
            )?;
        }
        let next_free_sgpr =
            (r.granulated_wavefront_sgpr_count() + 1) * self.p.sgpr_encoding_granule();
        s.push_str("\t.amdhsa_reserve_vcc 0\n");
        if !self.p.has_architected_flat_scratch() {
            s.push_str("\t.amdhsa_reserve_flat_scratch 0\n");
        }
        s.push_str("\t.amdhsa_reserve_xnack_mask 0\n");
        let _ = writeln!(s, "\t.amdhsa_next_free_sgpr {next_free_sgpr}");
        reserved(v, 0xc00, "COMPUTE_PGM_RSRC1_PRIORITY", "")?;
        let _ = writeln!(
            s,
            "\t.amdhsa_float_round_mode_32 {}",
            r.float_round_mode_32()
        );
        let _ = writeln!(
            s,
            "\t.amdhsa_float_round_mode_16_64 {}",
            r.float_round_mode_16_64()
        );
        let _ = writeln!(
            s,
            "\t.amdhsa_float_denorm_mode_32 {}",
            r.float_denorm_mode_32()
        );
        let _ = writeln!(
            s,
            "\t.amdhsa_float_denorm_mode_16_64 {}",
            r.float_denorm_mode_16_64()
        );
        reserved(v, 1 << 20, "COMPUTE_PGM_RSRC1_PRIV", "")?;
        if generation < Generation::Gfx12 {
            let _ = writeln!(s, "\t.amdhsa_dx10_clamp {}", r.enable_dx10_clamp());
        }
        reserved(v, 1 << 22, "COMPUTE_PGM_RSRC1_DEBUG_MODE", "")?;
        if generation < Generation::Gfx12 {
            let _ = writeln!(s, "\t.amdhsa_ieee_mode {}", r.enable_ieee_mode());
        }
        reserved(v, 1 << 24, "COMPUTE_PGM_RSRC1_BULKY", "")?;
        reserved(v, 1 << 25, "COMPUTE_PGM_RSRC1_CDBG_USER", "")?;
        if generation >= Generation::Gfx9 {
            let _ = writeln!(s, "\t.amdhsa_fp16_overflow {}", r.fp16_ovfl());
        } else {
            reserved(v, 1 << 26, "COMPUTE_PGM_RSRC1", ", must be zero pre-gfx9")?;
        }
        reserved(v, 1 << 27, "COMPUTE_PGM_RSRC1", "")?;
        reserved(v, 1 << 28, "COMPUTE_PGM_RSRC1", "")?;
        if generation >= Generation::Gfx10_1 {
            let _ = writeln!(s, "\t.amdhsa_workgroup_processor_mode {}", r.wgp_mode());
            let _ = writeln!(s, "\t.amdhsa_memory_ordered {}", r.mem_ordered());
            let _ = writeln!(s, "\t.amdhsa_forward_progress {}", r.fwd_progress());
        } else {
            reserved(v, 0xe000_0000, "COMPUTE_PGM_RSRC1", "")?;
        }
        if generation >= Generation::Gfx12 {
            let _ = writeln!(s, "\t.amdhsa_round_robin_scheduling {}", (v >> 21) & 1);
        }
        Ok(())
    }

    fn rsrc2(&self, s: &mut String) -> Result<(), String> {
        let v = self.kd.compute_pgm_rsrc2.get();
        let r = ComputePgmRsrc2(v);
        let mut d = |k: &str, x: u32| {
            let _ = writeln!(s, "\t.amdhsa_{k} {x}");
        };
        if self.p.has_architected_flat_scratch() {
            d("enable_private_segment", r.enable_private_segment());
        } else {
            d(
                "system_sgpr_private_segment_wavefront_offset",
                r.enable_private_segment(),
            );
        }
        d("system_sgpr_workgroup_id_x", r.enable_sgpr_workgroup_id_x());
        d("system_sgpr_workgroup_id_y", r.enable_sgpr_workgroup_id_y());
        d("system_sgpr_workgroup_id_z", r.enable_sgpr_workgroup_id_z());
        d("system_sgpr_workgroup_info", r.enable_sgpr_workgroup_info());
        d("system_vgpr_workitem_id", r.enable_vgpr_workitem_id());
        reserved(
            v,
            1 << 13,
            "COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_ADDRESS_WATCH",
            "",
        )?;
        reserved(v, 1 << 14, "COMPUTE_PGM_RSRC2_ENABLE_EXCEPTION_MEMORY", "")?;
        reserved(v, 0x1ff << 15, "COMPUTE_PGM_RSRC2_GRANULATED_LDS_SIZE", "")?;
        let mut d = |k: &str, x: u32| {
            let _ = writeln!(s, "\t.amdhsa_{k} {x}");
        };
        d(
            "exception_fp_ieee_invalid_op",
            r.enable_exception_ieee_754_fp_invalid_operation(),
        );
        d(
            "exception_fp_denorm_src",
            r.enable_exception_fp_denormal_source(),
        );
        d(
            "exception_fp_ieee_div_zero",
            r.enable_exception_ieee_754_fp_division_by_zero(),
        );
        d(
            "exception_fp_ieee_overflow",
            r.enable_exception_ieee_754_fp_overflow(),
        );
        d(
            "exception_fp_ieee_underflow",
            r.enable_exception_ieee_754_fp_underflow(),
        );
        d(
            "exception_fp_ieee_inexact",
            r.enable_exception_ieee_754_fp_inexact(),
        );
        d(
            "exception_int_div_zero",
            r.enable_exception_int_divide_by_zero(),
        );
        // LLVM 19 neither checks nor prints bit 31 on GFX12 (WGP_TAKEOVER).
        if self.p.generation < Generation::Gfx12 {
            reserved(v, 1 << 31, "COMPUTE_PGM_RSRC2_GFX6_GFX11", "")?;
        }
        Ok(())
    }

    fn properties(&self, s: &mut String) -> Result<(), String> {
        let raw = self.kd.kernel_code_properties.get();
        let p = KernelCodeProperties(raw);
        let arch = self.p.has_architected_flat_scratch();
        let mut d = |k: &str, x: u16| {
            let _ = writeln!(s, "\t.amdhsa_{k} {x}");
        };
        if !arch {
            d(
                "user_sgpr_private_segment_buffer",
                p.enable_sgpr_private_segment_buffer(),
            );
        }
        d("user_sgpr_dispatch_ptr", p.enable_sgpr_dispatch_ptr());
        d("user_sgpr_queue_ptr", p.enable_sgpr_queue_ptr());
        d(
            "user_sgpr_kernarg_segment_ptr",
            p.enable_sgpr_kernarg_segment_ptr(),
        );
        d("user_sgpr_dispatch_id", p.enable_sgpr_dispatch_id());
        if !arch {
            d(
                "user_sgpr_flat_scratch_init",
                p.enable_sgpr_flat_scratch_init(),
            );
        }
        d(
            "user_sgpr_private_segment_size",
            p.enable_sgpr_private_segment_size(),
        );
        let kcp = |mask: u16, msg: &str| -> Result<(), String> {
            if raw & mask != 0 {
                return Err(format!(
                    "kernel descriptor reserved {} set{msg}",
                    bit_range(u32::from(mask), 56)
                ));
            }
            Ok(())
        };
        kcp(0x380, "")?;
        if self.p.generation == Generation::Gfx9 {
            kcp(0x400, ", must be zero on gfx9")?;
        } else if self.p.generation >= Generation::Gfx10_1 {
            d("wavefront_size32", p.enable_wavefront_size32());
        }
        if self.cov >= 5 {
            d("uses_dynamic_stack", p.uses_dynamic_stack());
        }
        kcp(0xf000, "")?;
        Ok(())
    }
}
