//! Buffer memory: MUBUF and MTBUF through a buffer resource (V#),
//! including swizzled scratch through the private segment buffer.

use amdgpu_isa::gfx9::Op;

use super::Exec;

/// The function for `op`, if it is a buffer instruction.
pub fn lookup(op: Op) -> Option<Exec> {
    let _ = op;
    None
}

/// The private segment buffer V# for scratch at `base`: swizzled
/// (`SWIZZLE_ENABLE`), 4-byte elements, index stride 64 and
/// `ADD_TID_ENABLE`, so that dword `i` of lane `l`'s private memory lies
/// at `base + wave_offset + (i * 64 + l) * 4`.
pub fn scratch_resource(base: u64) -> [u32; 4] {
    [
        base as u32,
        (base >> 32) as u32 & 0xffff | 1 << 31,
        u32::MAX,
        3 << 21 | 1 << 23 | 4 << 15 | 4 << 12,
    ]
}
