//! Vector compares: VOPC (and their VOP3 and SDWA forms), `v_cmpx_*`
//! (which also write EXEC) and `v_cmp_class_*`.

use amdgpu_isa::gfx9::Op;

use super::valu::{src, src64, write_mask};
use super::{Ctx, Decoded, Exec, FaultKind};
use crate::wave::{LANES, Ty, Wave};

type R = Result<(), FaultKind>;

/// The function for `op`, if it is a compare.
pub fn lookup(op: Op) -> Option<Exec> {
    Some(match op {
        Op::V_CMP_GT_U64 => exec_v_cmp_gt_u64,
        Op::V_CMP_GT_U32 => exec_v_cmp_gt_u32,
        _ => return None,
    })
}

/// D.u64[lane] = S0.u64 > S1.u64.
fn exec_v_cmp_gt_u64(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src64(w, d, 1, Ty::B64);
    let b = src64(w, d, 2, Ty::B64);
    let mut m = 0u64;
    for l in 0..LANES {
        m |= u64::from(a[l] > b[l]) << l;
    }
    write_mask(w, d, 0, m);
    Ok(())
}

/// D.u64[lane] = S0.u32 > S1.u32.
fn exec_v_cmp_gt_u32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src(w, d, 1, Ty::B32);
    let b = src(w, d, 2, Ty::B32);
    let mut m = 0u64;
    for l in 0..LANES {
        m |= u64::from(a[l] > b[l]) << l;
    }
    write_mask(w, d, 0, m);
    Ok(())
}
