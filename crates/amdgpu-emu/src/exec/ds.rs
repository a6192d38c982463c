//! Local data share: DS loads, stores, atomics, `ds_swizzle_b32`,
//! `ds_permute_b32`/`ds_bpermute_b32`.

use amdgpu_isa::gfx9::Op;

use super::Exec;

/// The function for `op`, if it is a DS instruction.
pub fn lookup(op: Op) -> Option<Exec> {
    let _ = op;
    None
}
