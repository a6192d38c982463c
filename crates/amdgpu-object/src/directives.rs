//! The `.amdhsa_kernel` assembler directives (AMDGPUUsage "AMDHSA Kernel
//! Assembler Directives") and how they turn into a kernel descriptor, the
//! way `llvm-mc` computes it: register block counts from
//! `.amdhsa_next_free_vgpr/sgpr` and the `.amdhsa_reserve_*` directives,
//! the implied `USER_SGPR_COUNT`, and every default.
//!
//! Used by `hsakit as` (which parses the directives) and by the finalizer
//! (which knows the register counts it allocated).

use std::collections::BTreeMap;

use crate::kd::{
    ComputePgmRsrc1, ComputePgmRsrc2, ComputePgmRsrc3Gfx10, ComputePgmRsrc3Gfx90a, KernargPreload,
    KernelCodeProperties, kernel_descriptor_t,
};
use crate::target::{Generation, ProcessorExt, Setting, TargetId};

/// Which processors accept a directive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum On {
    All,
    /// Not on architected-flat-scratch processors (gfx94x, GFX11+).
    NotArchitected,
    /// Only on architected-flat-scratch processors.
    Architected,
    Gfx9Plus,
    Gfx10Plus,
    /// GFX10 and GFX11.
    Gfx10Gfx11,
    /// Before GFX12.
    PreGfx12,
    Gfx12Plus,
    Gfx90a,
    Gfx940,
}

/// Every directive (without the `.amdhsa_` prefix) and where it is accepted.
const DIRECTIVES: &[(&str, On)] = &[
    ("group_segment_fixed_size", On::All),
    ("private_segment_fixed_size", On::All),
    ("kernarg_size", On::All),
    ("user_sgpr_count", On::All),
    ("user_sgpr_private_segment_buffer", On::NotArchitected),
    ("user_sgpr_dispatch_ptr", On::All),
    ("user_sgpr_queue_ptr", On::All),
    ("user_sgpr_kernarg_segment_ptr", On::All),
    ("user_sgpr_dispatch_id", On::All),
    ("user_sgpr_flat_scratch_init", On::NotArchitected),
    ("user_sgpr_private_segment_size", On::All),
    ("user_sgpr_kernarg_preload_length", On::Gfx940),
    ("user_sgpr_kernarg_preload_offset", On::Gfx940),
    ("wavefront_size32", On::Gfx10Plus),
    ("uses_dynamic_stack", On::All),
    (
        "system_sgpr_private_segment_wavefront_offset",
        On::NotArchitected,
    ),
    ("enable_private_segment", On::Architected),
    ("system_sgpr_workgroup_id_x", On::All),
    ("system_sgpr_workgroup_id_y", On::All),
    ("system_sgpr_workgroup_id_z", On::All),
    ("system_sgpr_workgroup_info", On::All),
    ("system_vgpr_workitem_id", On::All),
    ("next_free_vgpr", On::All),
    ("next_free_sgpr", On::All),
    ("accum_offset", On::Gfx90a),
    ("reserve_vcc", On::All),
    ("reserve_flat_scratch", On::NotArchitected),
    ("reserve_xnack_mask", On::All),
    ("float_round_mode_32", On::All),
    ("float_round_mode_16_64", On::All),
    ("float_denorm_mode_32", On::All),
    ("float_denorm_mode_16_64", On::All),
    ("dx10_clamp", On::PreGfx12),
    ("ieee_mode", On::PreGfx12),
    ("round_robin_scheduling", On::Gfx12Plus),
    ("fp16_overflow", On::Gfx9Plus),
    ("tg_split", On::Gfx90a),
    ("workgroup_processor_mode", On::Gfx10Plus),
    ("memory_ordered", On::Gfx10Plus),
    ("forward_progress", On::Gfx10Plus),
    ("shared_vgpr_count", On::Gfx10Gfx11),
    ("exception_fp_ieee_invalid_op", On::All),
    ("exception_fp_denorm_src", On::All),
    ("exception_fp_ieee_div_zero", On::All),
    ("exception_fp_ieee_overflow", On::All),
    ("exception_fp_ieee_underflow", On::All),
    ("exception_fp_ieee_inexact", On::All),
    ("exception_int_div_zero", On::All),
];

/// The values given inside one `.amdhsa_kernel` … `.end_amdhsa_kernel`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KernelDirectives {
    values: BTreeMap<&'static str, u64>,
}

impl KernelDirectives {
    /// No directives given yet.
    pub fn new() -> KernelDirectives {
        KernelDirectives::default()
    }

    /// Records `.amdhsa_<name> <value>` (`name` with or without the
    /// `.amdhsa_` prefix). Errors name the problem as llvm-mc would.
    pub fn set(&mut self, name: &str, value: u64, target: &TargetId) -> Result<(), String> {
        let bare = name.strip_prefix(".amdhsa_").unwrap_or(name);
        let Some(&(key, on)) = DIRECTIVES.iter().find(|(n, _)| *n == bare) else {
            return Err(format!("unknown .amdhsa_kernel directive `.amdhsa_{bare}`"));
        };
        let p = target.processor;
        let ok = match on {
            On::All => true,
            On::NotArchitected => !p.has_architected_flat_scratch(),
            On::Architected => p.has_architected_flat_scratch(),
            On::Gfx9Plus => p.generation >= Generation::Gfx9,
            On::Gfx10Plus => p.is_gfx10_plus(),
            On::Gfx10Gfx11 => p.is_gfx10_plus() && p.generation < Generation::Gfx12,
            On::PreGfx12 => p.generation < Generation::Gfx12,
            On::Gfx12Plus => p.generation >= Generation::Gfx12,
            On::Gfx90a => p.is_gfx90a_family(),
            On::Gfx940 => p.is_gfx90a_family() && p.has_architected_flat_scratch(),
        };
        if !ok {
            return Err(format!(
                "directive `.amdhsa_{bare}` is not supported on {}",
                p.name
            ));
        }
        if key == "reserve_xnack_mask"
            && (value != 0) != matches!(target.xnack, Some(Setting::On | Setting::Any))
        {
            // llvm-mc: the value must agree with the target ID's xnack setting.
            return Err(".amdhsa_reserve_xnack_mask does not match target id".into());
        }
        if self.values.insert(key, value).is_some() {
            return Err(format!(
                ".amdhsa_ directives cannot be repeated (`.amdhsa_{bare}`)"
            ));
        }
        Ok(())
    }

    /// The value given for a directive, if any.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.values
            .get(name.strip_prefix(".amdhsa_").unwrap_or(name))
            .copied()
    }

    /// Builds the descriptor `llvm-mc` would emit (with
    /// `kernel_code_entry_byte_offset` 0: a relocation or the linker fills it).
    pub fn build(&self, target: &TargetId) -> Result<kernel_descriptor_t, String> {
        let p = target.processor;
        let get = |n: &str, d: u64| self.values.get(n).copied().unwrap_or(d);
        let flag = |n: &str, d: bool| get(n, u64::from(d)) != 0;
        let field = |n: &str, d: u64, bits: u32| -> Result<u32, String> {
            let v = get(n, d);
            if v >> bits != 0 {
                return Err(format!("value out of range for `.amdhsa_{n}`"));
            }
            Ok(v as u32)
        };
        let arch = p.has_architected_flat_scratch();
        let gfx10 = p.is_gfx10_plus();

        let mut kd = kernel_descriptor_t::default();
        kd.group_segment_fixed_size
            .set(field("group_segment_fixed_size", 0, 32)?);
        kd.private_segment_fixed_size
            .set(field("private_segment_fixed_size", 0, 32)?);
        kd.kernarg_size.set(field("kernarg_size", 0, 32)?);

        // kernel_code_properties and the implied user SGPR count.
        let wave32 = gfx10 && flag("wavefront_size32", true);
        let mut props = KernelCodeProperties::default();
        let mut implied = 0;
        let mut user =
            |on: bool,
             count: u32,
             set: fn(&mut KernelCodeProperties, u16) -> &mut KernelCodeProperties| {
                if on {
                    set(&mut props, 1);
                    implied += count;
                }
            };
        user(
            !arch && flag("user_sgpr_private_segment_buffer", false),
            4,
            KernelCodeProperties::set_enable_sgpr_private_segment_buffer,
        );
        user(
            flag("user_sgpr_dispatch_ptr", false),
            2,
            KernelCodeProperties::set_enable_sgpr_dispatch_ptr,
        );
        user(
            flag("user_sgpr_queue_ptr", false),
            2,
            KernelCodeProperties::set_enable_sgpr_queue_ptr,
        );
        user(
            flag("user_sgpr_kernarg_segment_ptr", false),
            2,
            KernelCodeProperties::set_enable_sgpr_kernarg_segment_ptr,
        );
        user(
            flag("user_sgpr_dispatch_id", false),
            2,
            KernelCodeProperties::set_enable_sgpr_dispatch_id,
        );
        user(
            !arch && flag("user_sgpr_flat_scratch_init", false),
            2,
            KernelCodeProperties::set_enable_sgpr_flat_scratch_init,
        );
        user(
            flag("user_sgpr_private_segment_size", false),
            1,
            KernelCodeProperties::set_enable_sgpr_private_segment_size,
        );
        if wave32 {
            props.set_enable_wavefront_size32(1);
        }
        if flag("uses_dynamic_stack", false) {
            props.set_uses_dynamic_stack(1);
        }
        kd.set_properties(props);
        let preload_length = field("user_sgpr_kernarg_preload_length", 0, 7)?;
        let mut preload = KernargPreload::default();
        preload.set_length(preload_length as u16).set_offset(field(
            "user_sgpr_kernarg_preload_offset",
            0,
            9,
        )? as u16);
        kd.kernarg_preload.set(preload.0);
        implied += preload_length;
        let user_sgpr_count = match self.values.get("user_sgpr_count") {
            Some(&n) if (n as u32) < implied => {
                return Err(
                    "amdgpu_user_sgpr_count smaller than than implied by enabled user SGPRs".into(),
                );
            }
            Some(&n) => n as u32,
            None => implied,
        };
        if user_sgpr_count > 32 {
            return Err("too many user SGPRs enabled".into());
        }

        // compute_pgm_rsrc2.
        let mut r2 = ComputePgmRsrc2::default();
        let private = if arch {
            get("enable_private_segment", 0)
        } else {
            get("system_sgpr_private_segment_wavefront_offset", 0)
        };
        r2.set_enable_private_segment(private as u32)
            .set_user_sgpr_count(user_sgpr_count)
            .set_enable_sgpr_workgroup_id_x(field("system_sgpr_workgroup_id_x", 1, 1)?)
            .set_enable_sgpr_workgroup_id_y(field("system_sgpr_workgroup_id_y", 0, 1)?)
            .set_enable_sgpr_workgroup_id_z(field("system_sgpr_workgroup_id_z", 0, 1)?)
            .set_enable_sgpr_workgroup_info(field("system_sgpr_workgroup_info", 0, 1)?)
            .set_enable_vgpr_workitem_id(field("system_vgpr_workitem_id", 0, 2)?)
            .set_enable_exception_ieee_754_fp_invalid_operation(field(
                "exception_fp_ieee_invalid_op",
                0,
                1,
            )?)
            .set_enable_exception_fp_denormal_source(field("exception_fp_denorm_src", 0, 1)?)
            .set_enable_exception_ieee_754_fp_division_by_zero(field(
                "exception_fp_ieee_div_zero",
                0,
                1,
            )?)
            .set_enable_exception_ieee_754_fp_overflow(field("exception_fp_ieee_overflow", 0, 1)?)
            .set_enable_exception_ieee_754_fp_underflow(field("exception_fp_ieee_underflow", 0, 1)?)
            .set_enable_exception_ieee_754_fp_inexact(field("exception_fp_ieee_inexact", 0, 1)?)
            .set_enable_exception_int_divide_by_zero(field("exception_int_div_zero", 0, 1)?);
        kd.set_rsrc2(r2);

        // compute_pgm_rsrc1: register blocks.
        let next_free_vgpr = self
            .values
            .get("next_free_vgpr")
            .copied()
            .ok_or(".amdhsa_next_free_vgpr directive is required")?;
        let next_free_sgpr = self
            .values
            .get("next_free_sgpr")
            .copied()
            .ok_or(".amdhsa_next_free_sgpr directive is required")?;
        let granule = u64::from(p.vgpr_encoding_granule(wave32));
        let vgpr_blocks = next_free_vgpr.max(1).div_ceil(granule) - 1;
        let sgpr_blocks = if gfx10 {
            0
        } else {
            let xnack_default = matches!(target.xnack, Some(Setting::On | Setting::Any));
            let vcc = flag("reserve_vcc", true);
            let flat = !arch && flag("reserve_flat_scratch", true);
            let xnack = flag("reserve_xnack_mask", xnack_default);
            let mut extra = if vcc { 2 } else { 0 };
            if p.generation < Generation::Gfx8 {
                if flat {
                    extra = 4;
                }
            } else {
                if xnack {
                    extra = 4;
                }
                if flat || arch {
                    extra = 6;
                }
            }
            (next_free_sgpr + extra).max(1).div_ceil(8) - 1
        };
        if vgpr_blocks > 63 {
            return Err("too many VGPRs".into());
        }
        if sgpr_blocks > 15 {
            return Err("too many SGPRs".into());
        }
        let mut r1 = ComputePgmRsrc1::default();
        r1.set_granulated_workitem_vgpr_count(vgpr_blocks as u32)
            .set_granulated_wavefront_sgpr_count(sgpr_blocks as u32)
            .set_float_round_mode_32(field("float_round_mode_32", 0, 2)?)
            .set_float_round_mode_16_64(field("float_round_mode_16_64", 0, 2)?)
            .set_float_denorm_mode_32(field("float_denorm_mode_32", 0, 2)?)
            .set_float_denorm_mode_16_64(field("float_denorm_mode_16_64", 3, 2)?);
        if p.generation >= Generation::Gfx12 {
            // Bit 21 is WG_RR_EN on GFX12; there is no DX10 clamp or IEEE mode bit.
            r1.set_enable_dx10_clamp(field("round_robin_scheduling", 0, 1)?);
        } else {
            r1.set_enable_dx10_clamp(field("dx10_clamp", 1, 1)?)
                .set_enable_ieee_mode(field("ieee_mode", 1, 1)?);
        }
        if p.generation >= Generation::Gfx9 {
            r1.set_fp16_ovfl(field("fp16_overflow", 0, 1)?);
        }
        if gfx10 {
            r1.set_wgp_mode(field("workgroup_processor_mode", 1, 1)?)
                .set_mem_ordered(field("memory_ordered", 1, 1)?)
                .set_fwd_progress(field("forward_progress", 0, 1)?);
        }
        kd.set_rsrc1(r1);

        // compute_pgm_rsrc3.
        if p.is_gfx90a_family() {
            let accum = self
                .values
                .get("accum_offset")
                .copied()
                .ok_or(".amdhsa_accum_offset directive is required")?;
            if accum < 4 || accum % 4 != 0 || accum > next_free_vgpr.max(1).next_multiple_of(4) {
                return Err("accum_offset should be in range [4..256] in increments of 4".into());
            }
            let mut r3 = ComputePgmRsrc3Gfx90a::default();
            r3.set_accum_offset((accum / 4 - 1) as u32)
                .set_tg_split(field("tg_split", 0, 1)?);
            kd.set_rsrc3(r3.0);
        } else if gfx10 {
            let shared = field("shared_vgpr_count", 0, 4)?;
            if shared != 0 && wave32 {
                return Err("shared_vgpr_count directive not valid on wavefront size 32".into());
            }
            let mut r3 = ComputePgmRsrc3Gfx10::default();
            r3.set_shared_vgpr_count(shared);
            kd.set_rsrc3(r3.0);
        }
        Ok(kd)
    }
}

/// Every directive name this module knows (without the `.amdhsa_` prefix).
pub fn directive_names() -> impl Iterator<Item = &'static str> {
    DIRECTIVES.iter().map(|(n, _)| *n)
}
