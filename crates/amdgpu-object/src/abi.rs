//! The kernel ABI contract (AMDGPUUsage "Initial Kernel Execution State",
//! "Kernel Descriptor", "Code Object V5 Metadata"): which SGPRs and VGPRs
//! hold what when a wavefront starts, and where the hidden kernel
//! arguments live in the kernarg segment.
//!
//! Written once here and used by both sides: the finalizer generates code
//! that reads these registers, the emulator writes them before the first
//! instruction. If they disagree, it is this file that is wrong.

use crate::amd_kernel_code::amd_kernel_code_t;
use crate::kd::kernel_descriptor_t;
use crate::metadata::{KernelArg, ValueKind};
use crate::target::{Processor, ProcessorExt};

/// What the packet processor puts in an initial SGPR (a slot may span
/// several consecutive SGPRs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SgprContent {
    /// 4 SGPRs: V# of the private segment (scratch) buffer.
    PrivateSegmentBuffer,
    /// 2 SGPRs: address of the AQL dispatch packet.
    DispatchPtr,
    /// 2 SGPRs: address of the `amd_queue_t`.
    QueuePtr,
    /// 2 SGPRs: address of the kernarg segment.
    KernargSegmentPtr,
    /// 2 SGPRs: 64-bit dispatch ID.
    DispatchId,
    /// 2 SGPRs: flat scratch init (GFX9: 64-bit scratch base for this queue).
    FlatScratchInit,
    /// 1 SGPR: private segment size per work-item.
    PrivateSegmentSize,
    /// v2 only (`amd_kernel_code_t`): grid size in work-groups, X/Y/Z.
    GridWorkgroupCount(u8),
    /// 1 SGPR: a preloaded kernarg dword (`dword` = index into the kernarg segment).
    PreloadedKernarg {
        /// Dword index in the kernarg segment.
        dword: u32,
    },
    /// 1 SGPR: work-group ID in dimension 0, 1, 2.
    WorkgroupId(u8),
    /// 1 SGPR: `{first_wavefront, 14'b0, ordered_append_term[10:0], threadgroup_size_in_wavefronts[5:0]}`.
    WorkgroupInfo,
    /// 1 SGPR: this wave's byte offset into the scratch buffer.
    PrivateSegmentWaveByteOffset,
}

impl SgprContent {
    /// Number of consecutive SGPRs.
    pub fn count(self) -> u32 {
        match self {
            SgprContent::PrivateSegmentBuffer => 4,
            SgprContent::DispatchPtr
            | SgprContent::QueuePtr
            | SgprContent::KernargSegmentPtr
            | SgprContent::DispatchId
            | SgprContent::FlatScratchInit => 2,
            _ => 1,
        }
    }
}

/// A run of initial SGPRs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SgprSlot {
    /// First SGPR number.
    pub first: u32,
    /// What it holds ([`SgprContent::count`] SGPRs).
    pub content: SgprContent,
}

/// How work-item IDs arrive in VGPRs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WorkItemIds {
    /// v0 = X, v1 = Y (if `dims >= 2`), v2 = Z (if `dims == 3`).
    Separate {
        /// Dimensions initialized (1..=3).
        dims: u8,
    },
    /// v0 = X | Y << 10 | Z << 20 (Y, Z zero unless enabled).
    Packed {
        /// Dimensions initialized (1..=3).
        dims: u8,
    },
}

impl WorkItemIds {
    /// Dimensions initialized.
    pub fn dims(self) -> u8 {
        match self {
            WorkItemIds::Separate { dims } | WorkItemIds::Packed { dims } => dims,
        }
    }

    /// Initial VGPR values for a lane: `(vgpr, value)` pairs.
    pub fn vgpr_values(self, id: [u32; 3]) -> Vec<(u32, u32)> {
        match self {
            WorkItemIds::Separate { dims } => {
                (0..u32::from(dims)).map(|d| (d, id[d as usize])).collect()
            }
            WorkItemIds::Packed { dims } => {
                let mut v = id[0] & 0x3ff;
                if dims >= 2 {
                    v |= (id[1] & 0x3ff) << 10;
                }
                if dims >= 3 {
                    v |= (id[2] & 0x3ff) << 20;
                }
                vec![(0, v)]
            }
        }
    }
}

/// Everything the hardware sets up at wave start for one kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaveLayout {
    /// User SGPRs (set by CP), dense from s0, in the AMDGPUUsage order.
    pub user_sgprs: Vec<SgprSlot>,
    /// `USER_SGPR_COUNT` from `compute_pgm_rsrc2`: system SGPRs start here
    /// (it may exceed the enabled user SGPRs, e.g. padding on GFX11).
    pub user_sgpr_count: u32,
    /// System SGPRs (set by ADC/SPI), dense from `user_sgpr_count`.
    pub system_sgprs: Vec<SgprSlot>,
    /// Work-item ID VGPRs.
    pub work_item_ids: WorkItemIds,
    /// 32 or 64.
    pub wavefront_size: u32,
    /// Hardware initializes FLAT_SCRATCH itself (architected flat scratch).
    pub architected_flat_scratch: bool,
    /// The private segment is enabled (`ENABLE_PRIVATE_SEGMENT`).
    pub private_segment: bool,
}

impl WaveLayout {
    /// The layout a v3+ kernel descriptor asks for on `processor`.
    pub fn new(kd: &kernel_descriptor_t, processor: &Processor) -> WaveLayout {
        let p = kd.properties();
        let r2 = kd.rsrc2();
        let arch = processor.has_architected_flat_scratch();
        let mut user = Vec::new();
        let mut next = 0;
        let mut push = |v: &mut Vec<SgprSlot>, on: bool, content: SgprContent| {
            if on {
                v.push(SgprSlot {
                    first: next,
                    content,
                });
                next += content.count();
            }
        };
        push(
            &mut user,
            !arch && p.enable_sgpr_private_segment_buffer() != 0,
            SgprContent::PrivateSegmentBuffer,
        );
        push(
            &mut user,
            p.enable_sgpr_dispatch_ptr() != 0,
            SgprContent::DispatchPtr,
        );
        push(
            &mut user,
            p.enable_sgpr_queue_ptr() != 0,
            SgprContent::QueuePtr,
        );
        push(
            &mut user,
            p.enable_sgpr_kernarg_segment_ptr() != 0,
            SgprContent::KernargSegmentPtr,
        );
        push(
            &mut user,
            p.enable_sgpr_dispatch_id() != 0,
            SgprContent::DispatchId,
        );
        push(
            &mut user,
            !arch && p.enable_sgpr_flat_scratch_init() != 0,
            SgprContent::FlatScratchInit,
        );
        push(
            &mut user,
            p.enable_sgpr_private_segment_size() != 0,
            SgprContent::PrivateSegmentSize,
        );
        let pre = kd.preload();
        for i in 0..u32::from(pre.length()) {
            push(
                &mut user,
                true,
                SgprContent::PreloadedKernarg {
                    dword: u32::from(pre.offset()) + i,
                },
            );
        }
        let user_sgpr_count = r2.user_sgpr_count();
        let system_sgprs = system_sgprs(
            user_sgpr_count,
            [
                r2.enable_sgpr_workgroup_id_x(),
                r2.enable_sgpr_workgroup_id_y(),
                r2.enable_sgpr_workgroup_id_z(),
            ],
            r2.enable_sgpr_workgroup_info() != 0,
            !arch && r2.enable_private_segment() != 0,
        );
        WaveLayout {
            user_sgprs: user,
            user_sgpr_count,
            system_sgprs,
            work_item_ids: work_item_ids(processor, r2.enable_vgpr_workitem_id()),
            wavefront_size: if processor.supports_wave32() && kd.wave32() {
                32
            } else {
                64
            },
            architected_flat_scratch: arch,
            private_segment: r2.enable_private_segment() != 0,
        }
    }

    /// The layout a code object v2 `amd_kernel_code_t` asks for.
    pub fn from_amd_kernel_code(akc: &amd_kernel_code_t, processor: &Processor) -> WaveLayout {
        let r2 = akc.rsrc2();
        let mut user = Vec::new();
        let mut next = 0;
        let mut push = |on: bool, content: SgprContent| {
            if on {
                user.push(SgprSlot {
                    first: next,
                    content,
                });
                next += content.count();
            }
        };
        push(
            akc.enable_sgpr_private_segment_buffer(),
            SgprContent::PrivateSegmentBuffer,
        );
        push(akc.enable_sgpr_dispatch_ptr(), SgprContent::DispatchPtr);
        push(akc.enable_sgpr_queue_ptr(), SgprContent::QueuePtr);
        push(
            akc.enable_sgpr_kernarg_segment_ptr(),
            SgprContent::KernargSegmentPtr,
        );
        push(akc.enable_sgpr_dispatch_id(), SgprContent::DispatchId);
        push(
            akc.enable_sgpr_flat_scratch_init(),
            SgprContent::FlatScratchInit,
        );
        push(
            akc.enable_sgpr_private_segment_size(),
            SgprContent::PrivateSegmentSize,
        );
        for d in 0..3u8 {
            push(
                akc.enable_sgpr_grid_workgroup_count(u32::from(d)),
                SgprContent::GridWorkgroupCount(d),
            );
        }
        let user_sgpr_count = r2.user_sgpr_count();
        WaveLayout {
            user_sgprs: user,
            user_sgpr_count,
            system_sgprs: system_sgprs(
                user_sgpr_count,
                [
                    r2.enable_sgpr_workgroup_id_x(),
                    r2.enable_sgpr_workgroup_id_y(),
                    r2.enable_sgpr_workgroup_id_z(),
                ],
                r2.enable_sgpr_workgroup_info() != 0,
                r2.enable_private_segment() != 0,
            ),
            work_item_ids: work_item_ids(processor, r2.enable_vgpr_workitem_id()),
            wavefront_size: 1 << akc.wavefront_size.min(6),
            architected_flat_scratch: false,
            private_segment: r2.enable_private_segment() != 0,
        }
    }

    /// Number of user SGPRs the enabled fields need (may be less than
    /// [`WaveLayout::user_sgpr_count`]).
    pub fn enabled_user_sgprs(&self) -> u32 {
        self.user_sgprs
            .last()
            .map_or(0, |s| s.first + s.content.count())
    }

    /// The first SGPR holding `content`, if it is set up.
    pub fn sgpr_of(&self, content: SgprContent) -> Option<u32> {
        self.user_sgprs
            .iter()
            .chain(&self.system_sgprs)
            .find(|s| s.content == content)
            .map(|s| s.first)
    }

    /// Every initialized SGPR run, user then system.
    pub fn all_sgprs(&self) -> impl Iterator<Item = &SgprSlot> {
        self.user_sgprs.iter().chain(&self.system_sgprs)
    }
}

/// The values the packet processor supplies for one wave, from which
/// [`WaveLayout::sgpr_values`] fills the initial SGPRs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WaveValues {
    /// V# of the scratch buffer (4 dwords).
    pub private_segment_buffer: [u32; 4],
    /// Address of the AQL dispatch packet.
    pub dispatch_ptr: u64,
    /// Address of the `amd_queue_t`.
    pub queue_ptr: u64,
    /// Address of the kernarg segment.
    pub kernarg_segment_ptr: u64,
    /// Dispatch ID.
    pub dispatch_id: u64,
    /// Flat scratch init (GFX9+: scratch base for the queue).
    pub flat_scratch_init: u64,
    /// Private segment size per work-item.
    pub private_segment_size: u32,
    /// Grid size in work-groups (v2 `amd_kernel_code_t` only).
    pub grid_workgroup_count: [u32; 3],
    /// The kernarg segment, for preloaded kernarg SGPRs.
    pub kernarg: Vec<u8>,
    /// This wave's work-group ID.
    pub workgroup_id: [u32; 3],
    /// Work-group info word (see [`workgroup_info`]).
    pub workgroup_info: u32,
    /// This wave's byte offset into scratch.
    pub private_segment_wave_byte_offset: u32,
}

/// The Work-Group Info SGPR: `{first_wavefront, 14'b0,
/// ordered_append_term[10:0], threadgroup_size_in_wavefronts[5:0]}`.
pub fn workgroup_info(first_wavefront: bool, ordered_append_term: u32, waves: u32) -> u32 {
    u32::from(first_wavefront) << 31 | (ordered_append_term & 0x7ff) << 6 | (waves & 0x3f)
}

impl WaveLayout {
    /// Initial `(sgpr, value)` pairs for a wave. User SGPRs beyond the
    /// first 16 are not initialized by the hardware and are left out.
    pub fn sgpr_values(&self, v: &WaveValues) -> Vec<(u32, u32)> {
        let lo = |x: u64| x as u32;
        let hi = |x: u64| (x >> 32) as u32;
        let mut out = Vec::new();
        for slot in self.all_sgprs() {
            let words: Vec<u32> = match slot.content {
                SgprContent::PrivateSegmentBuffer => v.private_segment_buffer.to_vec(),
                SgprContent::DispatchPtr => vec![lo(v.dispatch_ptr), hi(v.dispatch_ptr)],
                SgprContent::QueuePtr => vec![lo(v.queue_ptr), hi(v.queue_ptr)],
                SgprContent::KernargSegmentPtr => {
                    vec![lo(v.kernarg_segment_ptr), hi(v.kernarg_segment_ptr)]
                }
                SgprContent::DispatchId => vec![lo(v.dispatch_id), hi(v.dispatch_id)],
                SgprContent::FlatScratchInit => {
                    vec![lo(v.flat_scratch_init), hi(v.flat_scratch_init)]
                }
                SgprContent::PrivateSegmentSize => vec![v.private_segment_size],
                SgprContent::GridWorkgroupCount(d) => vec![v.grid_workgroup_count[usize::from(d)]],
                SgprContent::PreloadedKernarg { dword } => {
                    let at = dword as usize * 4;
                    let b = v.kernarg.get(at..at + 4).unwrap_or(&[0; 4]);
                    vec![u32::from_le_bytes([b[0], b[1], b[2], b[3]])]
                }
                SgprContent::WorkgroupId(d) => vec![v.workgroup_id[usize::from(d)]],
                SgprContent::WorkgroupInfo => vec![v.workgroup_info],
                SgprContent::PrivateSegmentWaveByteOffset => {
                    vec![v.private_segment_wave_byte_offset]
                }
            };
            let is_user = slot.first < self.user_sgpr_count
                && !matches!(
                    slot.content,
                    SgprContent::WorkgroupId(_)
                        | SgprContent::WorkgroupInfo
                        | SgprContent::PrivateSegmentWaveByteOffset
                );
            for (i, w) in words.into_iter().enumerate() {
                let reg = slot.first + i as u32;
                if is_user && reg >= 16 {
                    continue;
                }
                out.push((reg, w));
            }
        }
        out
    }
}

fn system_sgprs(first: u32, wg: [u32; 3], info: bool, wave_offset: bool) -> Vec<SgprSlot> {
    let mut v = Vec::new();
    let mut next = first;
    let mut push = |on: bool, content: SgprContent| {
        if on {
            v.push(SgprSlot {
                first: next,
                content,
            });
            next += 1;
        }
    };
    for (d, on) in wg.into_iter().enumerate() {
        push(on != 0, SgprContent::WorkgroupId(d as u8));
    }
    push(info, SgprContent::WorkgroupInfo);
    push(wave_offset, SgprContent::PrivateSegmentWaveByteOffset);
    v
}

fn work_item_ids(processor: &Processor, enable: u32) -> WorkItemIds {
    let dims = (enable.min(2) + 1) as u8;
    if processor.packed_work_item_ids {
        WorkItemIds::Packed { dims }
    } else {
        WorkItemIds::Separate { dims }
    }
}

/// Hidden (implicit) arguments of code object v5: byte offset relative to
/// the start of the 256-byte implicit-argument block, size, and kind.
/// The block starts right after the explicit arguments (8-byte aligned).
pub const V5_HIDDEN_ARGS: &[(u64, u64, ValueKind)] = &[
    (0, 4, ValueKind::HiddenBlockCountX),
    (4, 4, ValueKind::HiddenBlockCountY),
    (8, 4, ValueKind::HiddenBlockCountZ),
    (12, 2, ValueKind::HiddenGroupSizeX),
    (14, 2, ValueKind::HiddenGroupSizeY),
    (16, 2, ValueKind::HiddenGroupSizeZ),
    (18, 2, ValueKind::HiddenRemainderX),
    (20, 2, ValueKind::HiddenRemainderY),
    (22, 2, ValueKind::HiddenRemainderZ),
    (40, 8, ValueKind::HiddenGlobalOffsetX),
    (48, 8, ValueKind::HiddenGlobalOffsetY),
    (56, 8, ValueKind::HiddenGlobalOffsetZ),
    (64, 2, ValueKind::HiddenGridDims),
    (72, 8, ValueKind::HiddenPrintfBuffer),
    (80, 8, ValueKind::HiddenHostcallBuffer),
    (88, 8, ValueKind::HiddenMultigridSyncArg),
    (96, 8, ValueKind::HiddenHeapV1),
    (104, 8, ValueKind::HiddenDefaultQueue),
    (112, 8, ValueKind::HiddenCompletionAction),
    (120, 4, ValueKind::HiddenDynamicLdsSize),
    (192, 4, ValueKind::HiddenPrivateBase),
    (196, 4, ValueKind::HiddenSharedBase),
    (200, 8, ValueKind::HiddenQueuePtr),
];

/// Size of the v5 implicit-argument block.
pub const V5_HIDDEN_ARGS_SIZE: u64 = 256;

/// Hidden arguments of code object v3/v4, relative to the first hidden
/// argument (8-byte aligned after the explicit ones). The slot at 24 holds
/// the printf buffer, the hostcall buffer, or nothing (`hidden_none`).
pub const V4_HIDDEN_ARGS: &[(u64, u64, ValueKind)] = &[
    (0, 8, ValueKind::HiddenGlobalOffsetX),
    (8, 8, ValueKind::HiddenGlobalOffsetY),
    (16, 8, ValueKind::HiddenGlobalOffsetZ),
    (24, 8, ValueKind::HiddenPrintfBuffer),
    (32, 8, ValueKind::HiddenDefaultQueue),
    (40, 8, ValueKind::HiddenCompletionAction),
    (48, 8, ValueKind::HiddenMultigridSyncArg),
];

/// The v5 hidden-argument metadata entries clang emits for an OpenCL
/// kernel that needs the dispatch geometry (block counts, group sizes,
/// remainders, global offsets, grid dims), placed after explicit
/// arguments ending at `explicit_end`. Returns the entries and the
/// resulting `.kernarg_segment_size`.
pub fn v5_geometry_hidden_args(explicit_end: u64) -> (Vec<KernelArg>, u64) {
    let base = explicit_end.next_multiple_of(8);
    let args = V5_HIDDEN_ARGS
        .iter()
        .filter(|(off, _, _)| *off <= 64)
        .map(|(off, size, kind)| KernelArg::new(kind.clone(), base + off, *size))
        .collect();
    (args, base + V5_HIDDEN_ARGS_SIZE)
}

/// Byte offset in the kernarg segment of hidden argument `kind`, from the
/// kernel's metadata.
pub fn hidden_arg_offset(args: &[KernelArg], kind: &ValueKind) -> Option<u64> {
    args.iter()
        .find(|a| &a.value_kind == kind)
        .map(|a| a.offset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kd::{ComputePgmRsrc2, KernelCodeProperties};

    /// AMDGPUUsage's SGPR order, dense from s0; system SGPRs from USER_SGPR_COUNT.
    #[test]
    fn sgpr_order_follows_amdgpuusage() {
        let gfx900 = Processor::from_name("gfx900").unwrap();
        let mut kd = kernel_descriptor_t::default();
        let mut p = KernelCodeProperties::default();
        p.set_enable_sgpr_private_segment_buffer(1)
            .set_enable_sgpr_dispatch_ptr(1)
            .set_enable_sgpr_kernarg_segment_ptr(1);
        kd.set_properties(p);
        let mut r2 = ComputePgmRsrc2::default();
        r2.set_user_sgpr_count(8)
            .set_enable_sgpr_workgroup_id_x(1)
            .set_enable_sgpr_workgroup_id_z(1);
        r2.set_enable_vgpr_workitem_id(1);
        kd.set_rsrc2(r2);
        let l = WaveLayout::new(&kd, gfx900);
        assert_eq!(l.sgpr_of(SgprContent::PrivateSegmentBuffer), Some(0));
        assert_eq!(l.sgpr_of(SgprContent::DispatchPtr), Some(4));
        assert_eq!(l.sgpr_of(SgprContent::KernargSegmentPtr), Some(6));
        assert_eq!(l.sgpr_of(SgprContent::WorkgroupId(0)), Some(8));
        assert_eq!(l.sgpr_of(SgprContent::WorkgroupId(2)), Some(9));
        assert_eq!(l.work_item_ids, WorkItemIds::Separate { dims: 2 });
        let gfx90a = Processor::from_name("gfx90a").unwrap();
        let l = WaveLayout::new(&kd, gfx90a);
        assert_eq!(
            l.work_item_ids.vgpr_values([3, 5, 7]),
            vec![(0, 3 | 5 << 10)]
        );
    }
}
