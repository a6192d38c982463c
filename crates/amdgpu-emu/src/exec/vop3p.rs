//! Packed math and matrix instructions: VOP3P (`v_pk_*`, dot products,
//! `v_mad_mix*`/`v_fma_mix*`, MFMA and `v_accvgpr_*` on gfx908+).

use amdgpu_isa::gfx9::Op;

use super::Exec;

/// The function for `op`, if it is a VOP3P instruction.
pub fn lookup(op: Op) -> Option<Exec> {
    let _ = op;
    None
}
