//! IEEE-754 arithmetic in every MODE round and denorm mode, computed
//! without touching the host's floating-point environment.
//!
//! Every operation is exact-then-round: the exact result is formed with
//! integer arithmetic (a `u128` significand and a binary exponent, with the
//! bits shifted out OR-ed into the lowest bit, "sticky", whenever at least
//! two guard bits stay above it), then [`round_pack`] rounds it once to the
//! destination format in the requested [`Round`] mode. When the mode is
//! [`Fp::IEEE`] (nearest-even, denormals kept) f32 and f64 operations take
//! the host's IEEE operations instead, which give the same bits, and fall
//! back to the integer path only for NaN results.
//!
//! Conventions (AMD "Vega" ISA §4.6–4.7, LLVM AMDGPUUsage "Floating point
//! modes"):
//! - Denormals: with `flush_in` a denormal input counts as a zero of the
//!   same sign; with `flush_out` a result that is denormal *after rounding*
//!   becomes a zero of the same sign (the ISA does not say when tininess is
//!   detected; after rounding is what x86 SSE does and the choice only
//!   matters for results that round up to the smallest normal).
//! - NaN: when an input is a NaN the result is the first NaN input (src0,
//!   src1, src2) quieted, sign and payload kept (a subtraction negates its
//!   second operand first, NaN included); an invalid operation on non-NaN
//!   inputs (∞−∞, 0×∞, 0/0, ∞/∞, √−x) gives the default NaN, which on AMD
//!   hardware is the *negative* quiet NaN `0xffc00000` /
//!   `0xfff8000000000000` / `0xfe00`: the ISA manuals' functional examples
//!   (`V_LOG_F32(0xbf800000) => 0xffc00000`, `V_SIN_F32(+INF) =>
//!   0xffc00000`, `V_SQRT_F16(-INF) => 0xfe00`) and `V_DIV_FIXUP`'s 0/0
//!   result say so, and hardware measurements of RDNA parts agree. LLVM's
//!   constant folder uses the positive NaN, but that is the compiler's
//!   choice, not the hardware's. In a fused multiply-add an invalid product
//!   (0×∞) gives the default NaN even when the addend is a NaN.
//! - Overflow gives ∞ in nearest-even and in the direction of ∞'s sign,
//!   the largest finite value otherwise.
//! - An exact zero sum of non-zero operands is +0, or −0 when rounding
//!   toward −∞; zero plus zero follows IEEE-754 §6.3.

/// Rounding and denormal behaviour for one operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fp {
    /// Rounding direction.
    pub round: Round,
    /// Denormal inputs count as zeros of the same sign.
    pub flush_in: bool,
    /// Denormal results become zeros of the same sign.
    pub flush_out: bool,
}

/// Rounding direction (MODE encoding 0, 1, 2, 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    /// To nearest, ties to even.
    NearestEven,
    /// Toward +∞.
    Up,
    /// Toward −∞.
    Down,
    /// Toward zero.
    TowardZero,
}

impl Round {
    /// The direction a 2-bit MODE round field encodes.
    pub fn from_bits(bits: u32) -> Round {
        match bits & 3 {
            0 => Round::NearestEven,
            1 => Round::Up,
            2 => Round::Down,
            _ => Round::TowardZero,
        }
    }
}

impl Fp {
    /// Nearest-even, denormals kept.
    pub const IEEE: Fp = Fp {
        round: Round::NearestEven,
        flush_in: false,
        flush_out: false,
    };

    /// From a 2-bit round field and a 2-bit denorm field (bit 0 set: input
    /// denormals kept, bit 1 set: output denormals kept).
    pub fn from_fields(round: u32, denorm: u32) -> Fp {
        Fp {
            round: Round::from_bits(round),
            flush_in: denorm & 1 == 0,
            flush_out: denorm & 2 == 0,
        }
    }

    /// The f32 mode of a wave (MODE bits 1:0 and 5:4).
    pub fn f32(w: &crate::wave::Wave) -> Fp {
        Fp::from_fields(w.round_mode_32(), w.denorm_mode_32())
    }

    /// The f16 and f64 mode of a wave (MODE bits 3:2 and 7:6).
    pub fn f16_f64(w: &crate::wave::Wave) -> Fp {
        Fp::from_fields(w.round_mode_16_64(), w.denorm_mode_16_64())
    }

    /// The same mode with round-to-nearest-even.
    pub fn nearest(self) -> Fp {
        Fp {
            round: Round::NearestEven,
            ..self
        }
    }

    /// The same mode with another rounding direction.
    pub fn with_round(self, round: Round) -> Fp {
        Fp { round, ..self }
    }
}

/// A binary interchange format: exponent and stored-mantissa widths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fmt {
    /// Exponent field width.
    pub ebits: u32,
    /// Stored mantissa width (precision − 1).
    pub mbits: u32,
}

/// binary16.
pub const F16: Fmt = Fmt {
    ebits: 5,
    mbits: 10,
};
/// binary32.
pub const F32: Fmt = Fmt {
    ebits: 8,
    mbits: 23,
};
/// binary64.
pub const F64: Fmt = Fmt {
    ebits: 11,
    mbits: 52,
};

impl Fmt {
    /// Exponent bias.
    #[inline]
    pub const fn bias(self) -> i32 {
        (1 << (self.ebits - 1)) - 1
    }
    /// All-ones exponent field.
    #[inline]
    const fn emask(self) -> u64 {
        (1 << self.ebits) - 1
    }
    /// Sign bit.
    #[inline]
    pub const fn sign(self) -> u64 {
        1 << (self.ebits + self.mbits)
    }
    /// Stored-mantissa mask.
    #[inline]
    const fn mmask(self) -> u64 {
        (1 << self.mbits) - 1
    }
    /// Quiet bit (top mantissa bit).
    #[inline]
    pub const fn quiet(self) -> u64 {
        1 << (self.mbits - 1)
    }
    /// ±∞.
    #[inline]
    pub const fn inf(self, neg: bool) -> u64 {
        self.emask() << self.mbits | if neg { self.sign() } else { 0 }
    }
    /// Largest finite magnitude with the given sign.
    #[inline]
    const fn max_finite(self, neg: bool) -> u64 {
        self.inf(neg) - 1
    }
    /// ±0.
    #[inline]
    pub const fn zero(self, neg: bool) -> u64 {
        if neg { self.sign() } else { 0 }
    }
    /// The default quiet NaN (negative on AMD hardware, see the module doc).
    #[inline]
    pub const fn default_nan(self) -> u64 {
        self.sign() | self.emask() << self.mbits | self.quiet()
    }
    /// Whether `x` is a NaN.
    #[inline]
    pub const fn is_nan(self, x: u64) -> bool {
        x & !self.sign() > self.inf(false)
    }
    /// Whether `x` is a signalling NaN.
    #[inline]
    pub const fn is_snan(self, x: u64) -> bool {
        self.is_nan(x) && x & self.quiet() == 0
    }
    /// Whether `x` is a denormal (non-zero, exponent field 0).
    #[inline]
    pub const fn is_denorm(self, x: u64) -> bool {
        let m = x & !self.sign();
        m != 0 && m >> self.mbits == 0
    }
    /// Smallest (most negative) exponent of a normal number.
    #[inline]
    pub const fn emin(self) -> i32 {
        1 - self.bias()
    }
}

/// Default NaN of f32 (the result of an invalid operation).
pub const NAN_F32: u32 = 0xffc0_0000;
/// Default NaN of f64.
pub const NAN_F64: u64 = 0xfff8_0000_0000_0000;
/// Default NaN of f16.
pub const NAN_F16: u16 = 0xfe00;

/// `a` with its quiet bit set (a NaN stays that NaN, quieted).
#[inline]
pub fn quiet_nan_f32(a: u32) -> u32 {
    a | 0x0040_0000
}
/// `a` with its quiet bit set.
#[inline]
pub fn quiet_nan_f64(a: u64) -> u64 {
    a | 0x0008_0000_0000_0000
}
/// `a` with its quiet bit set.
#[inline]
pub fn quiet_nan_f16(a: u16) -> u16 {
    a | 0x0200
}

/// An unpacked operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Val {
    /// Not a number.
    Nan,
    /// ±∞ (true: negative).
    Inf(bool),
    /// ±0 (true: negative).
    Zero(bool),
    /// (−1)^neg × sig × 2^exp with sig ≠ 0.
    Fin {
        /// Negative.
        neg: bool,
        /// Integer significand.
        sig: u64,
        /// Exponent of the significand's unit bit.
        exp: i32,
    },
}

/// Classifies `x` of format `f`; with `flush` a denormal is a zero.
#[inline]
pub fn unpack(x: u64, f: Fmt, flush: bool) -> Val {
    let neg = x & f.sign() != 0;
    let e = x >> f.mbits & f.emask();
    let m = x & f.mmask();
    if e == f.emask() {
        if m == 0 { Val::Inf(neg) } else { Val::Nan }
    } else if e == 0 {
        if m == 0 || flush {
            Val::Zero(neg)
        } else {
            Val::Fin {
                neg,
                sig: m,
                exp: f.emin() - f.mbits as i32,
            }
        }
    } else {
        Val::Fin {
            neg,
            sig: m | 1 << f.mbits,
            exp: e as i32 - f.bias() - f.mbits as i32,
        }
    }
}

/// Rounds (−1)^neg × sig × 2^exp to format `f` in mode `m` (round
/// direction and `flush_out`). `sig` may carry a sticky bit in its lowest
/// bit; callers keep at least two bits below the rounding position in that
/// case. `sig = 0` gives a zero of sign `neg`.
pub fn round_pack(neg: bool, sig: u128, exp: i32, f: Fmt, m: Fp) -> u64 {
    if sig == 0 {
        return f.zero(neg);
    }
    let mb = f.mbits as i32;
    let nbits = 128 - sig.leading_zeros() as i32;
    let top = exp + nbits - 1;
    let mut lsb = top.max(f.emin()) - mb;
    let shift = lsb - exp;
    let (mut q, half, rest) = if shift <= 0 {
        (sig << (-shift) as u32, false, false)
    } else if shift <= 127 {
        let q = sig >> shift;
        let half = sig >> (shift - 1) & 1 != 0;
        let rest = sig & ((1u128 << (shift - 1)) - 1) != 0;
        (q, half, rest)
    } else if shift == 128 {
        (0, sig >> 127 != 0, sig << 1 != 0)
    } else {
        (0, false, true)
    };
    let inc = match m.round {
        Round::NearestEven => half && (rest || q & 1 != 0),
        Round::TowardZero => false,
        Round::Up => !neg && (half || rest),
        Round::Down => neg && (half || rest),
    };
    q += u128::from(inc);
    if q >> (mb + 1) != 0 {
        q >>= 1;
        lsb += 1;
    }
    if q == 0 {
        return f.zero(neg);
    }
    let s = f.zero(neg);
    if q >> mb == 0 {
        // Denormal (lsb is the denormal unit).
        if m.flush_out {
            return s;
        }
        return s | q as u64;
    }
    let e = i64::from(lsb) + i64::from(mb) + i64::from(f.bias());
    if e >= f.emask() as i64 {
        let to_inf = match m.round {
            Round::NearestEven => true,
            Round::TowardZero => false,
            Round::Up => !neg,
            Round::Down => neg,
        };
        return if to_inf {
            f.inf(neg)
        } else {
            f.max_finite(neg)
        };
    }
    s | (e as u64) << f.mbits | (q as u64 & f.mmask())
}

/// Normalises a non-zero `sig` so that its top bit is bit 125.
#[inline]
fn norm125(sig: u128, exp: i32) -> (u128, i32) {
    let s = sig.leading_zeros() as i32 - 2;
    if s >= 0 {
        (sig << s, exp - s)
    } else {
        let r = -s;
        let sticky = u128::from(sig & ((1u128 << r) - 1) != 0);
        (sig >> r | sticky, exp + r)
    }
}

/// Exact (sticky-jammed) sum of two non-zero finite values, or `None` when
/// it is exactly zero. Significands of up to 126 bits.
fn exact_sum(
    na: bool,
    ma: u128,
    ea: i32,
    nb: bool,
    mb: u128,
    eb: i32,
) -> Option<(bool, u128, i32)> {
    let (mut ma, mut ea) = norm125(ma, ea);
    let (mut mb, mut eb) = norm125(mb, eb);
    let (mut na, mut nb) = (na, nb);
    if (eb, mb) > (ea, ma) {
        std::mem::swap(&mut ma, &mut mb);
        std::mem::swap(&mut ea, &mut eb);
        std::mem::swap(&mut na, &mut nb);
    }
    // Shifting by one loses nothing for ≤ 106-bit significands; for larger
    // shifts the difference keeps its top bit at 124 or above, so the
    // sticky bit stays far below any rounding position.
    let d = (ea - eb) as u32;
    let mb = if d == 0 {
        mb
    } else if d < 128 {
        mb >> d | u128::from(mb & ((1u128 << d) - 1) != 0)
    } else {
        1
    };
    if na == nb {
        Some((na, ma + mb, ea))
    } else {
        let r = ma - mb;
        if r == 0 { None } else { Some((na, r, ea)) }
    }
}

/// The NaN result of a two-input operation when an input is a NaN.
#[inline]
fn nan2(a: u64, b: u64, f: Fmt) -> Option<u64> {
    if f.is_nan(a) {
        Some(a | f.quiet())
    } else if f.is_nan(b) {
        Some(b | f.quiet())
    } else {
        None
    }
}

/// Zero plus zero: the common sign, else +0 (−0 when rounding down).
#[inline]
fn zero_sum_sign(na: bool, nb: bool, m: Fp) -> bool {
    if na == nb { na } else { m.round == Round::Down }
}

/// a + b in format `f` (sub: `b` negated, NaN kept as is).
pub fn add_soft(a: u64, b: u64, f: Fmt, m: Fp) -> u64 {
    if let Some(n) = nan2(a, b, f) {
        return n;
    }
    let ua = unpack(a, f, m.flush_in);
    let ub = unpack(b, f, m.flush_in);
    add_vals(ua, ub, f, m)
}

/// Sum of two non-NaN unpacked values.
fn add_vals(ua: Val, ub: Val, f: Fmt, m: Fp) -> u64 {
    match (ua, ub) {
        (Val::Inf(x), Val::Inf(y)) => {
            if x == y {
                f.inf(x)
            } else {
                f.default_nan()
            }
        }
        (Val::Inf(x), _) | (_, Val::Inf(x)) => f.inf(x),
        (Val::Zero(x), Val::Zero(y)) => f.zero(zero_sum_sign(x, y, m)),
        (Val::Zero(_), Val::Fin { neg, sig, exp }) | (Val::Fin { neg, sig, exp }, Val::Zero(_)) => {
            round_pack(neg, u128::from(sig), exp, f, m)
        }
        (
            Val::Fin {
                neg: na,
                sig: sa,
                exp: ea,
            },
            Val::Fin {
                neg: nb,
                sig: sb,
                exp: eb,
            },
        ) => match exact_sum(na, u128::from(sa), ea, nb, u128::from(sb), eb) {
            Some((n, s, e)) => round_pack(n, s, e, f, m),
            None => f.zero(m.round == Round::Down),
        },
        _ => f.default_nan(),
    }
}

/// a × b in format `f`.
pub fn mul_soft(a: u64, b: u64, f: Fmt, m: Fp) -> u64 {
    if let Some(n) = nan2(a, b, f) {
        return n;
    }
    let ua = unpack(a, f, m.flush_in);
    let ub = unpack(b, f, m.flush_in);
    match (ua, ub) {
        (Val::Inf(_), Val::Zero(_)) | (Val::Zero(_), Val::Inf(_)) => f.default_nan(),
        (Val::Inf(x), v) | (v, Val::Inf(x)) => f.inf(x ^ sign_of(v)),
        (Val::Zero(x), v) | (v, Val::Zero(x)) => f.zero(x ^ sign_of(v)),
        (
            Val::Fin {
                neg: na,
                sig: sa,
                exp: ea,
            },
            Val::Fin {
                neg: nb,
                sig: sb,
                exp: eb,
            },
        ) => round_pack(na ^ nb, u128::from(sa) * u128::from(sb), ea + eb, f, m),
        _ => f.default_nan(),
    }
}

/// The sign of a non-NaN value.
#[inline]
fn sign_of(v: Val) -> bool {
    match v {
        Val::Inf(n) | Val::Zero(n) | Val::Fin { neg: n, .. } => n,
        Val::Nan => false,
    }
}

/// a × b + c with a single rounding in format `f`.
pub fn fma_soft(a: u64, b: u64, c: u64, f: Fmt, m: Fp) -> u64 {
    fma_scaled(a, b, c, 0, f, m)
}

/// (a × b + c) × 2^scale with a single rounding in format `f` (the
/// post-scaled multiply-add of `V_DIV_FMAS`).
pub fn fma_scaled(a: u64, b: u64, c: u64, scale: i32, f: Fmt, m: Fp) -> u64 {
    if let Some(n) = nan2(a, b, f) {
        return n;
    }
    let ua = unpack(a, f, m.flush_in);
    let ub = unpack(b, f, m.flush_in);
    if matches!(
        (ua, ub),
        (Val::Inf(_), Val::Zero(_)) | (Val::Zero(_), Val::Inf(_))
    ) {
        return f.default_nan();
    }
    if f.is_nan(c) {
        return c | f.quiet();
    }
    let uc = unpack(c, f, m.flush_in);
    let uc = match uc {
        Val::Fin { neg, sig, exp } => Val::Fin {
            neg,
            sig,
            exp: exp + scale,
        },
        v => v,
    };
    let np = sign_of(ua) ^ sign_of(ub);
    match (ua, ub) {
        (Val::Inf(_), Val::Zero(_)) | (Val::Zero(_), Val::Inf(_)) => f.default_nan(),
        (Val::Inf(_), _) | (_, Val::Inf(_)) => add_vals(Val::Inf(np), uc, f, m),
        (Val::Zero(_), _) | (_, Val::Zero(_)) => add_vals(Val::Zero(np), uc, f, m),
        (
            Val::Fin {
                sig: sa, exp: ea, ..
            },
            Val::Fin {
                sig: sb, exp: eb, ..
            },
        ) => {
            let ps = u128::from(sa) * u128::from(sb);
            let pe = ea + eb + scale;
            match uc {
                Val::Inf(x) => f.inf(x),
                Val::Zero(_) => round_pack(np, ps, pe, f, m),
                Val::Fin { neg, sig, exp } => {
                    match exact_sum(np, ps, pe, neg, u128::from(sig), exp) {
                        Some((n, s, e)) => round_pack(n, s, e, f, m),
                        None => f.zero(m.round == Round::Down),
                    }
                }
                Val::Nan => f.default_nan(),
            }
        }
        _ => f.default_nan(),
    }
}

/// a / b correctly rounded in format `f`.
pub fn div_soft(a: u64, b: u64, f: Fmt, m: Fp) -> u64 {
    if let Some(n) = nan2(a, b, f) {
        return n;
    }
    let ua = unpack(a, f, m.flush_in);
    let ub = unpack(b, f, m.flush_in);
    let n = sign_of(ua) ^ sign_of(ub);
    match (ua, ub) {
        (Val::Inf(_), Val::Inf(_)) | (Val::Zero(_), Val::Zero(_)) => f.default_nan(),
        (Val::Inf(_), _) | (_, Val::Zero(_)) => f.inf(n),
        (_, Val::Inf(_)) | (Val::Zero(_), _) => f.zero(n),
        (
            Val::Fin {
                sig: sa, exp: ea, ..
            },
            Val::Fin {
                sig: sb, exp: eb, ..
            },
        ) => {
            // Dividend at bit 125, divisor ≤ 53 bits: ≥ 72 quotient bits.
            let sh = sa.leading_zeros() as i32 + 62;
            let num = u128::from(sa) << sh;
            let den = u128::from(sb);
            let q = num / den;
            let sticky = u128::from(!num.is_multiple_of(den));
            round_pack(n, q | sticky, ea - sh - eb, f, m)
        }
        _ => f.default_nan(),
    }
}

/// √a correctly rounded in format `f` (√−0 = −0).
pub fn sqrt_soft(a: u64, f: Fmt, m: Fp) -> u64 {
    if f.is_nan(a) {
        return a | f.quiet();
    }
    match unpack(a, f, m.flush_in) {
        Val::Zero(n) => f.zero(n),
        Val::Inf(false) => f.inf(false),
        Val::Inf(true) | Val::Fin { neg: true, .. } | Val::Nan => f.default_nan(),
        Val::Fin { sig, exp, .. } => {
            // Top bit at 124 or 125 with an even exponent: a ≥ 62-bit root.
            let mut sh = sig.leading_zeros() as i32 + 60;
            if (exp - sh) & 1 != 0 {
                sh += 1;
            }
            let x = u128::from(sig) << sh;
            let r = x.isqrt();
            let sticky = u128::from(r * r != x);
            round_pack(false, r | sticky, (exp - sh) / 2, f, m)
        }
    }
}

/// Converts `a` from format `from` to format `to`, rounding in mode `m`
/// (a NaN keeps its sign and top payload bits and is quieted).
pub fn convert(a: u64, from: Fmt, to: Fmt, m: Fp) -> u64 {
    match unpack(a, from, m.flush_in) {
        Val::Nan => {
            let payload = a & from.mmask();
            let p = if to.mbits >= from.mbits {
                payload << (to.mbits - from.mbits)
            } else {
                payload >> (from.mbits - to.mbits)
            };
            to.zero(a & from.sign() != 0) | to.inf(false) | to.quiet() | p
        }
        Val::Inf(n) => to.inf(n),
        Val::Zero(n) => to.zero(n),
        Val::Fin { neg, sig, exp } => round_pack(neg, u128::from(sig), exp, to, m),
    }
}

/// A signed integer magnitude × 2^exp rounded to f32 in mode `m`.
#[inline]
pub fn int_to_f32(neg: bool, mag: u128, exp: i32, m: Fp) -> u32 {
    round_pack(neg, mag, exp, F32, m) as u32
}

/// A signed integer magnitude × 2^exp rounded to f64 in mode `m`.
#[inline]
pub fn int_to_f64(neg: bool, mag: u128, exp: i32, m: Fp) -> u64 {
    round_pack(neg, mag, exp, F64, m)
}

/// A signed integer magnitude × 2^exp rounded to f16 in mode `m`.
#[inline]
pub fn int_to_f16(neg: bool, mag: u128, exp: i32, m: Fp) -> u16 {
    round_pack(neg, mag, exp, F16, m) as u16
}

/// x × 2^n in format `f`, rounded in mode `m` (NaN quieted, ±∞ and ±0
/// kept, a denormal input flushed when `flush_in`).
pub fn ldexp_soft(x: u64, n: i32, f: Fmt, m: Fp) -> u64 {
    match unpack(x, f, m.flush_in) {
        Val::Nan => x | f.quiet(),
        Val::Inf(s) => f.inf(s),
        Val::Zero(s) => f.zero(s),
        Val::Fin { neg, sig, exp } => {
            round_pack(neg, u128::from(sig), exp + n.clamp(-4096, 4096), f, m)
        }
    }
}

/// frexp: the significand in [0.5, 1) with the sign of `x`, and the
/// exponent, of a finite non-zero `x`; `None` for zeros (after flushing),
/// infinities and NaNs.
pub fn frexp_soft(x: u64, f: Fmt, flush: bool) -> Option<(u64, i32)> {
    match unpack(x, f, flush) {
        Val::Fin { neg, sig, exp } => {
            let nb = 64 - sig.leading_zeros() as i32;
            Some((round_pack(neg, u128::from(sig), -nb, f, Fp::IEEE), exp + nb))
        }
        _ => None,
    }
}

/// x − floor(x), rounded in mode `m` and kept below 1.0 (the DX `fract`:
/// `fract(-0.25) = 0.75`); ±∞ gives the default NaN.
pub fn fract_soft(x: u64, f: Fmt, m: Fp) -> u64 {
    let below_one = ((f.bias() as u64) << f.mbits) - 1;
    let r = match unpack(x, f, m.flush_in) {
        Val::Nan => return x | f.quiet(),
        Val::Inf(_) => return f.default_nan(),
        Val::Zero(n) => f.zero(zero_sum_sign(n, !n, m)),
        Val::Fin { neg, sig, exp } => {
            if exp >= 0 {
                f.zero(m.round == Round::Down)
            } else if -exp >= 120 {
                if neg {
                    // 1 − tiny rounds like 1 − 2^-120 at this precision.
                    round_pack(false, (1u128 << 120) - 1, -120, f, m)
                } else {
                    round_pack(false, u128::from(sig), exp, f, m)
                }
            } else {
                let sh = (-exp) as u32;
                let frac = u128::from(sig) & ((1u128 << sh) - 1);
                if frac == 0 {
                    f.zero(m.round == Round::Down)
                } else if neg {
                    round_pack(false, (1u128 << sh) - frac, exp, f, m)
                } else {
                    round_pack(false, frac, exp, f, m)
                }
            }
        }
    };
    if r & !f.sign() > below_one {
        below_one
    } else {
        r
    }
}

// ---- f32 ----
//
// Round-to-nearest-even (in any denorm mode) takes a host fast path: flush
// the inputs if asked, compute with the host's IEEE-754 operation, flush a
// denormal result if asked (the same "flush after rounding" as the soft
// path). A NaN result takes the soft path, whose NaN propagation is AMD's
// (x86 returns a different NaN). Directed rounding is always soft.

/// Nearest-even through the host: flush the inputs if asked, `op`, flush
/// a denormal result if asked; `None` (use the soft path) in directed
/// rounding or for a NaN result.
#[inline(always)]
fn host_f32(args: [u32; 2], m: Fp, op: impl Fn(f32, f32) -> f32) -> Option<u32> {
    if m.round != Round::NearestEven {
        return None;
    }
    let [x, y] = args.map(|v| f32::from_bits(flush_f32(v, m.flush_in)));
    let r = op(x, y);
    (!r.is_nan()).then(|| flush_f32(r.to_bits(), m.flush_out))
}

/// [`host_f32`] for f64.
#[inline(always)]
fn host_f64(args: [u64; 2], m: Fp, op: impl Fn(f64, f64) -> f64) -> Option<u64> {
    if m.round != Round::NearestEven {
        return None;
    }
    let [x, y] = args.map(|v| f64::from_bits(flush_f64(v, m.flush_in)));
    let r = op(x, y);
    (!r.is_nan()).then(|| flush_f64(r.to_bits(), m.flush_out))
}

/// [`host_f32`] for f16: the sum and the product of two f16 values are
/// exact in f64, so one rounding to f16 gives the correctly rounded result.
#[inline(always)]
fn host_f16(args: [u16; 2], m: Fp, op: impl Fn(f64, f64) -> f64) -> Option<u16> {
    if m.round != Round::NearestEven {
        return None;
    }
    let [x, y] = args.map(|v| half::f16::from_bits(flush_f16(v, m.flush_in)).to_f64());
    let r = half::f16::from_f64(op(x, y));
    (!r.is_nan()).then(|| flush_f16(r.to_bits(), m.flush_out))
}

/// a + b (f32).
#[inline]
pub fn add_f32(a: u32, b: u32, m: Fp) -> u32 {
    host_f32([a, b], m, |x, y| x + y).unwrap_or_else(|| add_soft(a.into(), b.into(), F32, m) as u32)
}
/// a − b (f32): a + (−b), a NaN `b` negated too.
#[inline]
pub fn sub_f32(a: u32, b: u32, m: Fp) -> u32 {
    add_f32(a, b ^ 0x8000_0000, m)
}
/// a × b (f32).
#[inline]
pub fn mul_f32(a: u32, b: u32, m: Fp) -> u32 {
    host_f32([a, b], m, |x, y| x * y).unwrap_or_else(|| mul_soft(a.into(), b.into(), F32, m) as u32)
}
/// a × b + c, one rounding (f32).
#[inline]
pub fn fma_f32(a: u32, b: u32, c: u32, m: Fp) -> u32 {
    if m.round == Round::NearestEven
        && let Some(r) = fma_f32_nearest(
            flush_f32(a, m.flush_in),
            flush_f32(b, m.flush_in),
            flush_f32(c, m.flush_in),
        )
    {
        return flush_f32(r, m.flush_out);
    }
    fma_soft(a.into(), b.into(), c.into(), F32, m) as u32
}

/// fma in nearest-even through f64, without a host fma: the product of two
/// f32 values is exact in f64, so `s = p + c` is the only f64 rounding. If
/// `s` lands exactly on the midpoint between two f32 values while the exact
/// sum differs from it (its TwoSum error is not zero), `s` moves one f64
/// ulp toward the exact value so that the final rounding to f32 goes the
/// right way; a midpoint is representable in f64, so no other `s` can round
/// across one. `None` (use the soft path) for NaN results and for results
/// below the smallest normal f32, where the f32 rounding point moves.
#[inline]
fn fma_f32_nearest(a: u32, b: u32, c: u32) -> Option<u32> {
    let p = f64::from(f32::from_bits(a)) * f64::from(f32::from_bits(b));
    let z = f64::from(f32::from_bits(c));
    let s = p + z;
    if s.is_nan() || s.abs() < f64::from(f32::MIN_POSITIVE) {
        return None;
    }
    let bits = s.to_bits();
    let s = if bits & 0x1fff_ffff == 0x1000_0000 && s.is_finite() {
        // TwoSum: the exact error of p + z.
        let bb = s - p;
        let err = (p - (s - bb)) + (z - bb);
        if err == 0.0 {
            s
        } else if (err > 0.0) == (s > 0.0) {
            f64::from_bits(bits + 1)
        } else {
            f64::from_bits(bits - 1)
        }
    } else {
        s
    };
    Some((s as f32).to_bits())
}
/// a / b, correctly rounded (f32).
#[inline]
pub fn div_f32(a: u32, b: u32, m: Fp) -> u32 {
    host_f32([a, b], m, |x, y| x / y).unwrap_or_else(|| div_soft(a.into(), b.into(), F32, m) as u32)
}
/// √a, correctly rounded (f32).
#[inline]
pub fn sqrt_f32(a: u32, m: Fp) -> u32 {
    host_f32([a, 0], m, |x, _| x.sqrt()).unwrap_or_else(|| sqrt_soft(a.into(), F32, m) as u32)
}

// ---- f32, 64 lanes at a time ----
//
// The vector instructions' hot paths: in nearest-even every lane is
// computed branch-free through the host (the loops vectorize), and the few
// lanes whose result needs the exact rules (NaN; for fma also a midpoint or
// a denormal result) are redone one by one with the scalar functions.

type Lanes = [u32; 64];

/// Flushes a denormal to a signed zero when `flush`, without branching.
#[inline(always)]
fn flush_bits(x: u32, flush: bool) -> u32 {
    let denormal = x & 0x7f80_0000 == 0;
    let keep = if flush & denormal {
        0x8000_0000
    } else {
        u32::MAX
    };
    x & keep
}

#[inline(always)]
fn lanes2_f32(
    a: &Lanes,
    b: &Lanes,
    m: Fp,
    host: impl Fn(f32, f32) -> f32,
    scalar: impl Fn(u32, u32, Fp) -> u32,
) -> Lanes {
    let mut r = [0u32; 64];
    if m.round != Round::NearestEven {
        for l in 0..64 {
            r[l] = scalar(a[l], b[l], m);
        }
        return r;
    }
    let mut redo = 0u64;
    for l in 0..64 {
        let x = f32::from_bits(flush_bits(a[l], m.flush_in));
        let y = f32::from_bits(flush_bits(b[l], m.flush_in));
        let v = host(x, y);
        redo |= u64::from(v.is_nan()) << l;
        r[l] = flush_bits(v.to_bits(), m.flush_out);
    }
    while redo != 0 {
        let l = redo.trailing_zeros() as usize;
        r[l] = scalar(a[l], b[l], m);
        redo &= redo - 1;
    }
    r
}

/// `add_f32` on every lane.
pub fn add_f32_lanes(a: &Lanes, b: &Lanes, m: Fp) -> Lanes {
    lanes2_f32(a, b, m, |x, y| x + y, add_f32)
}

/// `sub_f32` on every lane.
pub fn sub_f32_lanes(a: &Lanes, b: &Lanes, m: Fp) -> Lanes {
    lanes2_f32(a, b, m, |x, y| x - y, sub_f32)
}

/// `mul_f32` on every lane.
pub fn mul_f32_lanes(a: &Lanes, b: &Lanes, m: Fp) -> Lanes {
    lanes2_f32(a, b, m, |x, y| x * y, mul_f32)
}

/// The branch-free nearest-even pass of [`fma_f32_lanes`] (`FLUSH`: some
/// denormal flushing is on); returns the lanes to redo exactly.
#[inline(always)]
fn fma_f32_lanes_nearest<const FLUSH: bool>(
    a: &Lanes,
    b: &Lanes,
    c: &Lanes,
    m: Fp,
    r: &mut Lanes,
) -> u64 {
    let mut redo = 0u64;
    let tiny = f64::from(f32::MIN_POSITIVE);
    let (fi, fo) = (FLUSH && m.flush_in, FLUSH && m.flush_out);
    for l in 0..64 {
        let [x, y, z] = [a[l], b[l], c[l]]
            .map(|v| f64::from(f32::from_bits(if FLUSH { flush_bits(v, fi) } else { v })));
        let s = x * y + z;
        let bits = s.to_bits();
        let exact_rules =
            s.is_nan() | ((s.abs() < tiny) & (s != 0.0)) | (bits & 0x1fff_ffff == 0x1000_0000);
        redo |= u64::from(exact_rules) << l;
        let v = (s as f32).to_bits();
        r[l] = if FLUSH { flush_bits(v, fo) } else { v };
    }
    redo
}

/// `fma_f32` on every lane (see [`fma_f32`] for the f64 method).
pub fn fma_f32_lanes(a: &Lanes, b: &Lanes, c: &Lanes, m: Fp) -> Lanes {
    let mut r = [0u32; 64];
    if m.round != Round::NearestEven {
        for l in 0..64 {
            r[l] = fma_f32(a[l], b[l], c[l], m);
        }
        return r;
    }
    let mut redo = if m.flush_in || m.flush_out {
        fma_f32_lanes_nearest::<true>(a, b, c, m, &mut r)
    } else {
        fma_f32_lanes_nearest::<false>(a, b, c, m, &mut r)
    };
    while redo != 0 {
        let l = redo.trailing_zeros() as usize;
        r[l] = fma_f32(a[l], b[l], c[l], m);
        redo &= redo - 1;
    }
    r
}

// ---- f64 ----

/// a + b (f64).
#[inline]
pub fn add_f64(a: u64, b: u64, m: Fp) -> u64 {
    host_f64([a, b], m, |x, y| x + y).unwrap_or_else(|| add_soft(a, b, F64, m))
}
/// a − b (f64).
#[inline]
pub fn sub_f64(a: u64, b: u64, m: Fp) -> u64 {
    add_f64(a, b ^ F64.sign(), m)
}
/// a × b (f64).
#[inline]
pub fn mul_f64(a: u64, b: u64, m: Fp) -> u64 {
    host_f64([a, b], m, |x, y| x * y).unwrap_or_else(|| mul_soft(a, b, F64, m))
}
/// a × b + c, one rounding (f64).
#[inline]
pub fn fma_f64(a: u64, b: u64, c: u64, m: Fp) -> u64 {
    if m.round == Round::NearestEven {
        let [x, y, z] = [a, b, c].map(|v| f64::from_bits(flush_f64(v, m.flush_in)));
        let r = x.mul_add(y, z);
        if !r.is_nan() {
            return flush_f64(r.to_bits(), m.flush_out);
        }
    }
    fma_soft(a, b, c, F64, m)
}
/// a / b, correctly rounded (f64).
#[inline]
pub fn div_f64(a: u64, b: u64, m: Fp) -> u64 {
    host_f64([a, b], m, |x, y| x / y).unwrap_or_else(|| div_soft(a, b, F64, m))
}
/// √a, correctly rounded (f64).
#[inline]
pub fn sqrt_f64(a: u64, m: Fp) -> u64 {
    host_f64([a, 0], m, |x, _| x.sqrt()).unwrap_or_else(|| sqrt_soft(a, F64, m))
}

// ---- f16 ----

/// a + b (f16).
#[inline]
pub fn add_f16(a: u16, b: u16, m: Fp) -> u16 {
    host_f16([a, b], m, |x, y| x + y).unwrap_or_else(|| add_soft(a.into(), b.into(), F16, m) as u16)
}
/// a − b (f16).
#[inline]
pub fn sub_f16(a: u16, b: u16, m: Fp) -> u16 {
    add_f16(a, b ^ 0x8000, m)
}
/// a × b (f16).
#[inline]
pub fn mul_f16(a: u16, b: u16, m: Fp) -> u16 {
    host_f16([a, b], m, |x, y| x * y).unwrap_or_else(|| mul_soft(a.into(), b.into(), F16, m) as u16)
}
/// a × b + c, one rounding (f16).
#[inline]
pub fn fma_f16(a: u16, b: u16, c: u16, m: Fp) -> u16 {
    fma_soft(a.into(), b.into(), c.into(), F16, m) as u16
}
/// a / b, correctly rounded (f16).
#[inline]
pub fn div_f16(a: u16, b: u16, m: Fp) -> u16 {
    div_soft(a.into(), b.into(), F16, m) as u16
}
/// √a, correctly rounded (f16).
#[inline]
pub fn sqrt_f16(a: u16, m: Fp) -> u16 {
    sqrt_soft(a.into(), F16, m) as u16
}

// ---- conversions ----

/// f32 → f16, rounded in mode `m` (`flush_in` applies to the f32 input,
/// `flush_out` to the f16 result).
#[inline]
pub fn f32_to_f16(a: u32, m: Fp) -> u16 {
    convert(a.into(), F32, F16, m) as u16
}
/// f16 → f32 (exact; `flush_in` flushes a denormal f16 input).
#[inline]
pub fn f16_to_f32(a: u16, m: Fp) -> u32 {
    convert(a.into(), F16, F32, m) as u32
}
/// f64 → f32, rounded in mode `m`.
#[inline]
pub fn f64_to_f32(a: u64, m: Fp) -> u32 {
    convert(a, F64, F32, m) as u32
}
/// f32 → f64 (exact; `flush_in` flushes a denormal f32 input).
#[inline]
pub fn f32_to_f64(a: u32, m: Fp) -> u64 {
    convert(a.into(), F32, F64, m)
}
/// f64 → f16, rounded once in mode `m`.
#[inline]
pub fn f64_to_f16(a: u64, m: Fp) -> u16 {
    convert(a, F64, F16, m) as u16
}
/// f16 → f64 (exact).
#[inline]
pub fn f16_to_f64(a: u16, m: Fp) -> u64 {
    convert(a.into(), F16, F64, m)
}

/// `a` with a denormal flushed to a zero of the same sign when `flush`.
#[inline]
pub fn flush_f32(a: u32, flush: bool) -> u32 {
    if flush && a & 0x7f80_0000 == 0 {
        a & 0x8000_0000
    } else {
        a
    }
}
/// `a` with a denormal flushed to a zero of the same sign when `flush`.
#[inline]
pub fn flush_f64(a: u64, flush: bool) -> u64 {
    if flush && a & 0x7ff0_0000_0000_0000 == 0 {
        a & F64.sign()
    } else {
        a
    }
}
/// `a` with a denormal flushed to a zero of the same sign when `flush`.
#[inline]
pub fn flush_f16(a: u16, flush: bool) -> u16 {
    if flush && a & 0x7c00 == 0 {
        a & 0x8000
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustc_apfloat::ieee::{Double, Half, Single};
    use rustc_apfloat::{Float, FloatConvert, Round as AR};

    const MODES: [Round; 4] = [
        Round::NearestEven,
        Round::Up,
        Round::Down,
        Round::TowardZero,
    ];

    fn ar(r: Round) -> AR {
        match r {
            Round::NearestEven => AR::NearestTiesToEven,
            Round::Up => AR::TowardPositive,
            Round::Down => AR::TowardNegative,
            Round::TowardZero => AR::TowardZero,
        }
    }

    fn mode(r: Round) -> Fp {
        Fp {
            round: r,
            flush_in: false,
            flush_out: false,
        }
    }

    /// xorshift64* generator.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
    }

    /// Random bit patterns biased toward interesting exponents.
    fn pattern(r: &mut Rng, f: Fmt, partner: u64) -> u64 {
        let x = r.next();
        let sign = if x & 1 != 0 { f.sign() } else { 0 };
        let mant = r.next() & f.mmask();
        let emask = f.emask();
        let e = match (x >> 1) % 12 {
            0 => 0,
            1 => emask,
            2 => emask - 1,
            3 => 1,
            4 => 2,
            5 => f.bias() as u64,
            6 => {
                // Near the partner's exponent, for cancellation.
                let pe = partner >> f.mbits & emask;
                (pe + (x >> 8) % 3).saturating_sub(1).min(emask - 1)
            }
            7 => return partner ^ f.sign() ^ (r.next() & 3),
            8 => return (r.next() % 8) | sign,
            9 => return (f.max_finite(false) - (r.next() % 4)) | sign,
            _ => (x >> 16) % emask,
        };
        let mant = if e == emask && x >> 40 & 1 != 0 {
            0
        } else {
            mant
        };
        sign | e << f.mbits | mant
    }

    fn same(f: Fmt, got: u64, want: u64) -> bool {
        got == want || (f.is_nan(got) && f.is_nan(want))
    }

    /// One format's arithmetic on raw bits (widened to u64).
    struct Ops {
        add: fn(u64, u64, Fp) -> u64,
        sub: fn(u64, u64, Fp) -> u64,
        mul: fn(u64, u64, Fp) -> u64,
        div: fn(u64, u64, Fp) -> u64,
        fma: fn(u64, u64, u64, Fp) -> u64,
    }

    /// `ops` on `a`, `b`, `c` against apfloat's correctly rounded results
    /// in format `A`, in every rounding mode.
    fn check_arith<A: Float>(f: Fmt, ops: &Ops, a: u64, b: u64, c: u64) {
        let [fa, fb, fc] = [a, b, c].map(|x| A::from_bits(x.into()));
        for r in MODES {
            let m = mode(r);
            let bits = |x: A| x.to_bits() as u64;
            let cases = [
                ("add", (ops.add)(a, b, m), bits(fa.add_r(fb, ar(r)).value)),
                ("sub", (ops.sub)(a, b, m), bits(fa.sub_r(fb, ar(r)).value)),
                ("mul", (ops.mul)(a, b, m), bits(fa.mul_r(fb, ar(r)).value)),
                ("div", (ops.div)(a, b, m), bits(fa.div_r(fb, ar(r)).value)),
                (
                    "fma",
                    (ops.fma)(a, b, c, m),
                    bits(fa.mul_add_r(fb, fc, ar(r)).value),
                ),
            ];
            for (op, got, want) in cases {
                assert!(
                    same(f, got, want),
                    "{op} {a:#x} {b:#x} {c:#x} {r:?}: {got:#x} vs {want:#x}"
                );
            }
        }
    }

    const OPS_F32: Ops = Ops {
        add: |a, b, m| add_f32(a as u32, b as u32, m).into(),
        sub: |a, b, m| sub_f32(a as u32, b as u32, m).into(),
        mul: |a, b, m| mul_f32(a as u32, b as u32, m).into(),
        div: |a, b, m| div_f32(a as u32, b as u32, m).into(),
        fma: |a, b, c, m| fma_f32(a as u32, b as u32, c as u32, m).into(),
    };
    const OPS_F64: Ops = Ops {
        add: add_f64,
        sub: sub_f64,
        mul: mul_f64,
        div: div_f64,
        fma: fma_f64,
    };
    const OPS_F16: Ops = Ops {
        add: |a, b, m| add_f16(a as u16, b as u16, m).into(),
        sub: |a, b, m| sub_f16(a as u16, b as u16, m).into(),
        mul: |a, b, m| mul_f16(a as u16, b as u16, m).into(),
        div: |a, b, m| div_f16(a as u16, b as u16, m).into(),
        fma: |a, b, c, m| fma_f16(a as u16, b as u16, c as u16, m).into(),
    };

    #[test]
    fn f32_ops_match_apfloat() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        for _ in 0..200_000 {
            let a = pattern(&mut rng, F32, 0);
            let b = pattern(&mut rng, F32, a);
            let c = pattern(&mut rng, F32, a);
            check_arith::<Single>(F32, &OPS_F32, a, b, c);
            let fa = Single::from_bits(a.into());
            for r in MODES {
                let want: Half = fa.convert_r(ar(r), &mut false).value;
                let got = f32_to_f16(a as u32, mode(r));
                assert!(
                    same(F16, got.into(), want.to_bits() as u64),
                    "cvt {a:#x} {r:?}"
                );
            }
            // Host IEEE operations in nearest-even, and the soft paths.
            let (a32, b32, c32) = (a as u32, b as u32, c as u32);
            let [x, y, z] = [a32, b32, c32].map(f32::from_bits);
            let m = Fp::IEEE;
            let host = |v: f32| u64::from(v.to_bits());
            assert!(same(
                F32,
                fma_f32(a32, b32, c32, m).into(),
                host(x.mul_add(y, z))
            ));
            assert!(same(F32, sqrt_f32(a32, m).into(), host(x.sqrt())));
            assert!(same(F32, sub_f32(a32, b32, m).into(), host(x - y)));
            assert!(same(F32, mul_soft(a, b, F32, m), host(x * y)));
            assert!(same(F32, add_soft(a, b, F32, m), host(x + y)));
            assert!(same(F32, div_soft(a, b, F32, m), host(x / y)));
            assert!(same(F32, sqrt_soft(a, F32, m), host(x.sqrt())));
            assert_eq!(f32_to_f64(a32, m), f64::from(x).to_bits());
        }
    }

    #[test]
    fn f64_ops_match_apfloat() {
        let mut rng = Rng(0x0bad_cafe_dead_beef);
        for _ in 0..100_000 {
            let a = pattern(&mut rng, F64, 0);
            let b = pattern(&mut rng, F64, a);
            let c = pattern(&mut rng, F64, a);
            check_arith::<Double>(F64, &OPS_F64, a, b, c);
            let fa = Double::from_bits(a.into());
            for r in MODES {
                let m = mode(r);
                let want: Single = fa.convert_r(ar(r), &mut false).value;
                let got = f64_to_f32(a, m);
                assert!(
                    same(F32, got.into(), want.to_bits() as u64),
                    "cvt {a:#x} {r:?}"
                );
                let want: Half = fa.convert_r(ar(r), &mut false).value;
                let got = f64_to_f16(a, m);
                assert!(
                    same(F16, got.into(), want.to_bits() as u64),
                    "cvt16 {a:#x} {r:?}"
                );
            }
            let [x, y, z] = [a, b, c].map(f64::from_bits);
            let m = Fp::IEEE;
            assert!(same(F64, fma_f64(a, b, c, m), x.mul_add(y, z).to_bits()));
            assert!(same(F64, sqrt_f64(a, m), x.sqrt().to_bits()));
            assert!(same(F64, sqrt_soft(a, F64, m), x.sqrt().to_bits()));
            assert!(same(F64, sub_f64(a, b, m), (x - y).to_bits()));
        }
    }

    #[test]
    fn f16_ops_match_apfloat() {
        let mut rng = Rng(0x5eed_5eed_5eed_5eed);
        for _ in 0..200_000 {
            let a = pattern(&mut rng, F16, 0);
            let b = pattern(&mut rng, F16, a);
            let c = pattern(&mut rng, F16, a);
            check_arith::<Half>(F16, &OPS_F16, a, b, c);
            let want: Single = Half::from_bits(a.into()).convert(&mut false).value;
            let got = f16_to_f32(a as u16, Fp::IEEE);
            assert!(same(F32, got.into(), want.to_bits() as u64));
        }
    }

    #[test]
    fn lane_versions_match_scalar() {
        let mut rng = Rng(0x1a2b_3c4d_5e6f_7081);
        for _ in 0..2_000 {
            let a: [u64; 64] = std::array::from_fn(|_| pattern(&mut rng, F32, 0));
            let mut v = [
                a.map(|x| x as u32),
                a.map(|x| pattern(&mut rng, F32, x) as u32),
                a.map(|x| pattern(&mut rng, F32, x) as u32),
            ];
            // Some exact midpoints: 4097 * 4097 + tiny.
            v[0][0] = 4097f32.to_bits();
            v[1][0] = 4097f32.to_bits();
            for round in 0..4 {
                for denorm in 0..4 {
                    let m = Fp::from_fields(round, denorm);
                    let (add, sub) = (
                        add_f32_lanes(&v[0], &v[1], m),
                        sub_f32_lanes(&v[0], &v[1], m),
                    );
                    let mul = mul_f32_lanes(&v[0], &v[1], m);
                    let fma = fma_f32_lanes(&v[0], &v[1], &v[2], m);
                    for l in 0..64 {
                        let (a, b, c) = (v[0][l], v[1][l], v[2][l]);
                        assert_eq!(add[l], add_f32(a, b, m), "add {a:#x} {b:#x} {m:?}");
                        assert_eq!(sub[l], sub_f32(a, b, m), "sub {a:#x} {b:#x} {m:?}");
                        assert_eq!(mul[l], mul_f32(a, b, m), "mul {a:#x} {b:#x} {m:?}");
                        assert_eq!(
                            fma[l],
                            fma_f32(a, b, c, m),
                            "fma {a:#x} {b:#x} {c:#x} {m:?}"
                        );
                    }
                }
            }
        }
    }

    /// fma through f64 when the f64 sum lands on an f32 midpoint: 4097² =
    /// 2²⁴ + 2¹³ + 1 lies halfway between two f32 values, and a tiny addend
    /// decides the direction (ties-to-even alone would round down).
    #[test]
    fn fma_f32_double_rounding_midpoints() {
        let a = 4097f32.to_bits();
        for (c, want) in [
            (f32::from_bits(0x3080_0000), 16_785_410f32), // 2^-30
            (f32::from_bits(0xb080_0000), 16_785_408f32), // -2^-30
            (0.0, 16_785_408f32),
            (f32::from_bits(1), 16_785_410f32), // 2^-149
        ] {
            let got = fma_f32(a, a, c.to_bits(), Fp::IEEE);
            let exact = Single::from_bits(a.into())
                .mul_add_r(
                    Single::from_bits(a.into()),
                    Single::from_bits(c.to_bits().into()),
                    AR::NearestTiesToEven,
                )
                .value
                .to_bits() as u32;
            assert_eq!(got, exact, "fma(4097, 4097, {c:e})");
            assert_eq!(f32::from_bits(got), want, "fma(4097, 4097, {c:e})");
        }
    }

    /// The host fast paths (nearest-even) agree with the soft paths in all
    /// four denorm modes.
    #[test]
    fn fast_paths_match_soft_in_every_denorm_mode() {
        let mut rng = Rng(0x5eed_f00d_dead_beef);
        for _ in 0..100_000 {
            for denorm in 0..4 {
                let m = Fp::from_fields(0, denorm);
                for f in [F16, F32, F64] {
                    let a = pattern(&mut rng, f, 0);
                    let b = pattern(&mut rng, f, a);
                    let c = pattern(&mut rng, f, a);
                    let (add, mul, fma) = match f.mbits {
                        10 => (
                            u64::from(add_f16(a as u16, b as u16, m)),
                            u64::from(mul_f16(a as u16, b as u16, m)),
                            fma_soft(a, b, c, f, m),
                        ),
                        23 => (
                            u64::from(add_f32(a as u32, b as u32, m)),
                            u64::from(mul_f32(a as u32, b as u32, m)),
                            u64::from(fma_f32(a as u32, b as u32, c as u32, m)),
                        ),
                        _ => (add_f64(a, b, m), mul_f64(a, b, m), fma_f64(a, b, c, m)),
                    };
                    assert_eq!(add, add_soft(a, b, f, m), "add {a:#x} {b:#x} {m:?}");
                    assert_eq!(mul, mul_soft(a, b, f, m), "mul {a:#x} {b:#x} {m:?}");
                    assert_eq!(
                        fma,
                        fma_soft(a, b, c, f, m),
                        "fma {a:#x} {b:#x} {c:#x} {m:?}"
                    );
                    if f != F16 {
                        let (div, sqrt) = if f == F32 {
                            (
                                u64::from(div_f32(a as u32, b as u32, m)),
                                u64::from(sqrt_f32(a as u32, m)),
                            )
                        } else {
                            (div_f64(a, b, m), sqrt_f64(a, m))
                        };
                        assert_eq!(div, div_soft(a, b, f, m), "div {a:#x} {b:#x} {m:?}");
                        assert_eq!(sqrt, sqrt_soft(a, f, m), "sqrt {a:#x} {m:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn sqrt_is_correctly_rounded() {
        let mut rng = Rng(0x7777_1234_4321_9999);
        for i in 0..100_000u64 {
            let a = if i < 64 {
                i
            } else {
                pattern(&mut rng, F32, 0) & !F32.sign()
            } as u32;
            let Val::Fin { sig, exp, .. } = unpack(a.into(), F32, false) else {
                continue;
            };
            for r in MODES {
                let got = sqrt_f32(a, mode(r));
                // Compare got², and the squares of the midpoints around it,
                // with a, all as exact integers scaled by a power of two.
                let Val::Fin {
                    sig: rs, exp: re, ..
                } = unpack(got.into(), F32, false)
                else {
                    panic!("sqrt({a:#x}) = {got:#x}");
                };
                // Values ×2^k with k making every exponent non-negative.
                let cmp = |s2: u128, e2: i32| -> std::cmp::Ordering {
                    // s2·2^e2 vs sig·2^exp
                    let k = -e2.min(exp);
                    let l = s2 << (e2 + k) as u32;
                    let rgt = u128::from(sig) << (exp + k) as u32;
                    l.cmp(&rgt)
                };
                // lo = (rs − ½)·2^re, hi = (rs + ½)·2^re; squares at 2^(2re−2).
                let lo = u128::from(2 * rs - 1);
                let hi = u128::from(2 * rs + 1);
                let sq = u128::from(rs) * u128::from(rs);
                use std::cmp::Ordering::*;
                match r {
                    Round::NearestEven => {
                        assert_ne!(cmp(lo * lo, 2 * re - 2), Greater, "{a:#x}");
                        assert_ne!(cmp(hi * hi, 2 * re - 2), Less, "{a:#x}");
                    }
                    Round::Down | Round::TowardZero => {
                        assert_ne!(cmp(sq, 2 * re), Greater, "{a:#x}");
                        let n = u128::from(rs + 1);
                        assert_eq!(cmp(n * n, 2 * re), Greater, "{a:#x}");
                    }
                    Round::Up => {
                        assert_ne!(cmp(sq, 2 * re), Less, "{a:#x}");
                        let p = u128::from(rs - 1);
                        if rs > 1 {
                            assert_eq!(cmp(p * p, 2 * re), Less, "{a:#x}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn special_cases() {
        let m = Fp::IEEE;
        // Invalid operations give the positive default NaN.
        assert_eq!(add_f32(0x7f80_0000, 0xff80_0000, m), NAN_F32);
        assert_eq!(mul_f32(0, 0xff80_0000, m), NAN_F32);
        assert_eq!(div_f64(0, 0, m), NAN_F64);
        assert_eq!(sqrt_f32(0xbf80_0000, m), NAN_F32);
        assert_eq!(fma_f16(0x7c00, 0, 0x3c00, m), NAN_F16);
        // NaN inputs: first NaN quieted.
        assert_eq!(add_f32(0xff80_0001, 0x7fc0_0002, m), 0xffc0_0001);
        assert_eq!(
            fma_f32(0x3f80_0000, 0x7f80_0005, 0x7fc0_0000, m),
            0x7fc0_0005
        );
        assert_eq!(sub_f32(1, 0xff80_0003, m), 0x7fc0_0003);
        assert_eq!(fma_f32(0, 0x7f80_0000, 0x7fc0_0001, m), NAN_F32);
        assert_eq!(NAN_F32, 0xffc0_0000);
        assert_eq!(sqrt_f32(0x8000_0000, m), 0x8000_0000);
        // Zero sums.
        let down = m.with_round(Round::Down);
        assert_eq!(add_f32(0x3f80_0000, 0xbf80_0000, m), 0);
        assert_eq!(add_f32(0x3f80_0000, 0xbf80_0000, down), 0x8000_0000);
        assert_eq!(add_f32(0, 0x8000_0000, down), 0x8000_0000);
        assert_eq!(add_f32(0x8000_0000, 0x8000_0000, m), 0x8000_0000);
        // Overflow.
        let tz = m.with_round(Round::TowardZero);
        assert_eq!(mul_f32(0x7f00_0000, 0x4000_0000, tz), 0x7f7f_ffff);
        assert_eq!(mul_f32(0xff00_0000, 0x4000_0000, down), 0xff80_0000);
        assert_eq!(
            mul_f32(0xff00_0000, 0x4000_0000, m.with_round(Round::Up)),
            0xff7f_ffff
        );
        // Flushing.
        let ftz = Fp {
            round: Round::NearestEven,
            flush_in: true,
            flush_out: true,
        };
        assert_eq!(add_f32(1, 0, ftz), 0);
        assert_eq!(add_f32(0x8000_0001, 0x8000_0000, ftz), 0x8000_0000);
        assert_eq!(
            add_f32(
                1,
                0,
                Fp {
                    flush_in: false,
                    ..ftz
                }
            ),
            0
        );
        assert_eq!(
            add_f32(
                1,
                0,
                Fp {
                    flush_out: false,
                    ..ftz
                }
            ),
            0
        );
        assert_eq!(add_f32(1, 0, Fp::IEEE), 1);
        // 2^-126 × (1 − 2^-24) rounds up to the smallest normal: kept.
        assert_eq!(mul_f32(0x0080_0000, 0x3f7f_ffff, ftz), 0x0080_0000);
        assert_eq!(mul_f32(0x0080_0000, 0x3f7f_fffe, ftz), 0);
        assert_eq!(f16_to_f32(0x0001, ftz), 0);
        assert_eq!(f16_to_f32(0x0001, Fp::IEEE), 0x3380_0000);
        assert_eq!(f32_to_f64(0x8000_0001, ftz), 0x8000_0000_0000_0000);
        // NaN conversion keeps sign and payload top bits.
        assert_eq!(f32_to_f16(0xff80_2001, m), 0xfe01);
        assert_eq!(f32_to_f16(0x7fa0_0000, m), 0x7f00);
        assert_eq!(f16_to_f32(0x7d00, m), 0x7fe0_0000);
        assert_eq!(f64_to_f32(0x7ff0_0000_2000_0000, m), 0x7fc0_0001);
    }
}
