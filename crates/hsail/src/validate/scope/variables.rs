//! Variables (PRM 4.3.8, 4.3.10, 4.6, 4.10, 16.2.1): names, types, dimensions,
//! qualifiers and initializers, image and sampler properties (7.1.7, 7.1.8).

use super::*;

/// PRM 4.3.3, 4.11, 4.12: module-scope variables.
pub(super) fn check_module_variable(
    cx: &mut Cx<'_, '_>,
    at: CodeOffset,
    v: &BrigDirectiveVariable,
) {
    check_module_linkage(cx, at, v.linkage);
    if !matches!(
        v.segment,
        Seg::GLOBAL | Seg::READONLY | Seg::GROUP | Seg::PRIVATE
    ) {
        cx.err(
            "PRM 4.3.8",
            at,
            format!(
                "a module-scope variable cannot be in the {} segment",
                v.segment.name().unwrap_or("?").to_ascii_lowercase()
            ),
        );
    }
    let name = cx.name_str(v.name);
    check_variable(cx, at, v, name, '&');
}

/// PRM 4.6: the name of a `what` declared at module scope starts with
/// `&`, in a code block with `%` (`sigil`), and has a body.
#[inline]
pub(super) fn check_sigil(
    cx: &mut Cx<'_, '_>,
    at: CodeOffset,
    what: &str,
    name: &str,
    sigil: char,
) {
    if !name.starts_with(sigil) || name.len() < 2 {
        cx.err(
            "PRM 4.6",
            at,
            format!("{what} name {name:?} must start with {sigil}"),
        );
    }
}

/// Rules common to every variable (PRM 4.3.10, 4.11, 4.13, 4.20); `name`
/// is its name.
pub(super) fn check_variable(
    cx: &mut Cx<'_, '_>,
    at: CodeOffset,
    v: &BrigDirectiveVariable,
    name: &str,
    sigil: char,
) {
    check_sigil(cx, at, "variable", name, sigil);
    check_reserved_name(cx, at, name);
    let elem = v.type_.array_element().unwrap_or(v.type_);
    if elem == BrigType::B1 || elem == BrigType::NONE || elem.bit_size().is_none() {
        cx.err(
            "PRM 4.3.8",
            at,
            format!(
                "variables cannot have type {}",
                elem.text().unwrap_or_default()
            ),
        );
    }
    let dim = v.dim.get();
    if !v.type_.is_array() && dim != 0 {
        cx.err("PRM 18.5", at, "a non-array variable has dim 0");
    }
    let is_def = v.modifier.contains(BrigVariableModifierMask::DEFINITION);
    if v.type_.is_array()
        && dim == 0
        && is_def
        && v.segment != Seg::ARG
        && v.segment != Seg::KERNARG
        && v.init.is_none()
    {
        cx.err(
            "PRM 4.3.8",
            at,
            "an array definition without an initializer needs a size",
        );
    }
    check_natural_align(cx, at, v);
    check_type_support(cx, at, elem);
    // PRM 7.1.7, 7.1.8: image and sampler handles live in the global,
    // readonly, arg and kernarg segments only.
    if (elem.is_image() || elem == BrigType::SAMP)
        && !matches!(
            v.segment,
            Seg::GLOBAL | Seg::READONLY | Seg::ARG | Seg::KERNARG
        )
    {
        let rule = if elem == BrigType::SAMP {
            "PRM 7.1.8"
        } else {
            "PRM 7.1.7"
        };
        cx.err(
            rule,
            at,
            "image and sampler variables are in the global, readonly, arg or kernarg segment",
        );
    }
    if v.modifier.contains(BrigVariableModifierMask::CONST)
        && !matches!(v.segment, Seg::GLOBAL | Seg::READONLY)
    {
        cx.err(
            "PRM 4.3.10",
            at,
            "const applies only to global and readonly variables",
        );
    }
    if v.modifier.contains(BrigVariableModifierMask::CONST)
        && v.modifier.contains(BrigVariableModifierMask::DEFINITION)
        && matches!(v.segment, Seg::GLOBAL | Seg::READONLY)
        && v.init.is_none()
    {
        cx.err(
            "PRM 4.3.10",
            at,
            "a const global or readonly definition needs an initializer",
        );
    }
    if let Some(init) = v.init.non_null() {
        check_initializer(cx, at, v, init);
    }
    let alloc_ok = match v.segment {
        Seg::GLOBAL | Seg::READONLY => matches!(
            v.allocation,
            BrigAllocation::AGENT | BrigAllocation::PROGRAM
        ),
        _ => v.allocation == BrigAllocation::AUTOMATIC || v.allocation == BrigAllocation::NONE,
    };
    if !alloc_ok {
        cx.err(
            "PRM 4.3.10",
            at,
            format!(
                "allocation {} is not allowed in the {} segment",
                v.allocation.name().unwrap_or("?"),
                v.segment.name().unwrap_or("?")
            ),
        );
    }
}

/// The profile, machine model and extensions allow the type of a variable
/// or formal argument: image and sampler types need extension IMAGE
/// (PRM 13.1.2), the base profile has no f64 (16.2.1), the small model no
/// sig64 and the large model no sig32 (4.13.3).
#[inline]
pub(super) fn check_type_support(cx: &mut Cx<'_, '_>, at: CodeOffset, elem: BrigType) {
    if (elem.is_image() || elem == BrigType::SAMP) && !cx.env.image_ext {
        cx.err(
            "PRM 13.1.2",
            at,
            "image and sampler variables and arguments need extension \"IMAGE\"",
        );
    }
    if cx.env.profile == BrigProfile::BASE && elem.base() == BrigType::F64 {
        cx.err(
            "PRM 16.2.1",
            at,
            "the base profile does not support f64 variables or arguments",
        );
    }
    // PRM 4.13.3: sig32 only in the small model, sig64 only in the large
    // one ("this includes segment variable declarations, definitions").
    let large = cx.env.model == BrigMachineModel::LARGE;
    if elem
        == if large {
            BrigType::SIG32
        } else {
            BrigType::SIG64
        }
    {
        let model = if large { "large" } else { "small" };
        let msg = format!(
            "the {model} model has no {} variables",
            elem.text().unwrap_or_default()
        );
        cx.err("PRM 4.13.3", at, msg);
    }
}

/// PRM 4.10: initializers only on global/readonly definitions, of the
/// variable's type (Table 4-1) and exactly its byte size.
fn check_initializer(
    cx: &mut Cx<'_, '_>,
    at: CodeOffset,
    v: &BrigDirectiveVariable,
    init: brig::OperandOffset,
) {
    if !matches!(v.segment, Seg::GLOBAL | Seg::READONLY) {
        cx.err(
            "PRM 4.10",
            at,
            "only global and readonly variables can have initializers",
        );
    }
    if !v.modifier.contains(BrigVariableModifierMask::DEFINITION) {
        cx.err("PRM 4.10", at, "a declaration cannot have an initializer");
    }
    let elem = v.type_.array_element().unwrap_or(v.type_);
    let Ok(o) = cx.m.operand(init) else { return };
    let mut opaque = false;
    match o {
        Operand::ConstantImage(c) => {
            opaque = true;
            if !elem.is_image() || c.type_ != elem {
                cx.err("PRM 4.10", at, "image initializer for a non-image variable");
            }
            check_image_properties(cx, at, c);
        }
        Operand::ConstantSampler(c) => {
            opaque = true;
            if elem != BrigType::SAMP {
                cx.err(
                    "PRM 4.10",
                    at,
                    "sampler initializer for a non-sampler variable",
                );
            }
            check_sampler_properties(cx, at, c);
        }
        Operand::ConstantBytes(c) => {
            check_initializer_type(cx, at, v, c.type_);
            if elem.is_image() || elem == BrigType::SAMP {
                cx.err(
                    "PRM 4.10",
                    at,
                    "an image or sampler needs an image or sampler initializer",
                );
            }
        }
        Operand::ConstantOperandList(l) => {
            // Table 4-1: an aggregate initializes only a bit-type array;
            // an array of images or samplers is a list of their constants.
            if elem.base_class() != brig::BaseClass::Opaque
                && !(v.type_.is_array() && elem.base_class() == brig::BaseClass::B)
            {
                cx.err(
                    "PRM 4.10",
                    at,
                    "an aggregate constant initializes only an array of a bit type (Table 4-1)",
                );
            }
            let elems = cx.m.operand_list(l.elements).unwrap_or_default();
            let mut only_align = !elems.is_empty();
            for e in elems {
                match cx.m.operand(e) {
                    Ok(Operand::ConstantImage(c)) => {
                        opaque = true;
                        only_align = false;
                        check_image_properties(cx, at, c);
                    }
                    Ok(Operand::ConstantSampler(c)) => {
                        opaque = true;
                        only_align = false;
                        check_sampler_properties(cx, at, c);
                    }
                    Ok(Operand::Align(_)) => {}
                    _ => only_align = false,
                }
            }
            if only_align {
                cx.err(
                    "PRM 4.8.4",
                    at,
                    "an aggregate constant cannot consist of only alignment requests",
                );
            }
        }
        _ => {
            cx.err("PRM 4.10", at, "an initializer must be a constant");
            return;
        }
    }
    if cx.env.profile == BrigProfile::BASE && has_f64_constant(cx.m, o) {
        cx.err(
            "PRM 16.2.1",
            at,
            "the base profile does not support double-precision constants",
        );
    }
    // PRM 4.3.10: program allocation takes no image or sampler initializer.
    if opaque && v.allocation != BrigAllocation::AGENT {
        cx.err(
            "PRM 4.3.10",
            at,
            "image and sampler initializers need agent allocation (alloc(agent))",
        );
    }
    check_initializer_size(cx, at, v, o);
}

/// PRM 4.10: the byte size of the initializer is the byte size of the
/// variable (no zero fill, no truncation); an array with an empty
/// dimension takes a whole number of elements.
fn check_initializer_size(
    cx: &mut Cx<'_, '_>,
    at: CodeOffset,
    v: &BrigDirectiveVariable,
    o: Operand<'_>,
) {
    let Some(len) = constant_size(cx.m, o, 0) else {
        return;
    };
    let elem = v.type_.array_element().unwrap_or(v.type_);
    let Some(esz) = elem.byte_size().map(u64::from).filter(|&n| n > 0) else {
        return;
    };
    let want = if v.type_.is_array() {
        esz.saturating_mul(v.dim.get())
    } else {
        esz
    };
    if len != want || len % esz != 0 {
        let msg =
            format!("the initializer has {len} bytes, the variable {want} (they must be equal)");
        cx.err("PRM 4.10", at, msg);
    }
}

/// The byte size of a constant operand (images, samplers and signal
/// handles are 8 bytes; aggregate alignment requests pad with zeros,
/// PRM 4.8.4), or `None` if it is not a constant.
fn constant_size(m: &Index<'_>, o: Operand<'_>, depth: u32) -> Option<u64> {
    match o {
        Operand::ConstantBytes(c) => Some(m.data_bytes(c.bytes).map_or(0, <[u8]>::len) as u64),
        Operand::ConstantImage(_) | Operand::ConstantSampler(_) => Some(8),
        Operand::ConstantOperandList(l) if depth < 4 => {
            let mut n: u64 = 0;
            for e in m.operand_list(l.elements).ok()? {
                match m.operand(e).ok()? {
                    Operand::Align(a) => {
                        let b = u64::from(a.align.bytes()?);
                        n = n.div_ceil(b) * b;
                    }
                    e => n += constant_size(m, e, depth + 1)?,
                }
            }
            Some(n)
        }
        _ => None,
    }
}

/// Whether a constant operand holds an f64 value (an f64 or f64x2 typed
/// constant, or an array or aggregate with one).
pub(super) fn has_f64_constant(m: &Index<'_>, o: Operand<'_>) -> bool {
    match o {
        Operand::ConstantBytes(c) => c.type_.array_element().unwrap_or(c.type_).base() == BrigType::F64,
        Operand::ConstantOperandList(l) => m
            .operand_list(l.elements)
            .unwrap_or_default()
            .iter()
            .any(|&e| matches!(m.operand(e), Ok(Operand::ConstantBytes(c)) if c.type_.array_element().unwrap_or(c.type_).base() == BrigType::F64)),
        _ => false,
    }
}

/// PRM 4.10, Table 4-1: an array variable takes an array constant of its
/// element type, a non-array variable a non-array constant.
fn check_initializer_type(
    cx: &mut Cx<'_, '_>,
    at: CodeOffset,
    v: &BrigDirectiveVariable,
    t: BrigType,
) {
    match (v.type_.array_element(), t.array_element()) {
        (Some(want), Some(got)) if want != got => {
            let msg = format!(
                "an array of {} is initialized with an array of {} (Table 4-1: same type)",
                want.text().unwrap_or_default(),
                got.text().unwrap_or_default()
            );
            cx.err("PRM 4.10", at, msg);
        }
        (None, Some(_)) => cx.err(
            "PRM 4.10",
            at,
            "an array constant initializes only an array variable",
        ),
        (Some(_), None) => cx.err(
            "PRM 4.10",
            at,
            "an array variable needs an array or aggregate constant",
        ),
        _ => {}
    }
}

/// Image properties (PRM 7.1.3, 7.1.7): a width always; a height, depth or
/// array size exactly when the geometry has that dimension.
fn check_image_properties(cx: &mut Cx<'_, '_>, at: CodeOffset, c: &brig::BrigOperandConstantImage) {
    use brig::BrigImageGeometry as G;
    let g = c.geometry;
    if g.raw() > G::_2DADEPTH.raw() {
        cx.err(
            "PRM 7.1.3",
            at,
            format!("unknown image geometry {}", g.raw()),
        );
        return;
    }
    let has_height = matches!(g, G::_2D | G::_3D | G::_2DA | G::_2DDEPTH | G::_2DADEPTH);
    let has_depth = g == G::_3D;
    let has_array = matches!(g, G::_1DA | G::_2DA | G::_2DADEPTH);
    for (name, value, wanted) in [
        ("width", c.width.get(), true),
        ("height", c.height.get(), has_height),
        ("depth", c.depth.get(), has_depth),
        ("array", c.array.get(), has_array),
    ] {
        if wanted && value == 0 {
            cx.err(
                "PRM 7.1.7",
                at,
                format!("an image of this geometry needs a {name} greater than 0"),
            );
        }
        if !wanted && value != 0 {
            cx.err(
                "PRM 7.1.7",
                at,
                format!("an image of this geometry has no {name}"),
            );
        }
    }
    let depth_order = matches!(
        c.channel_order,
        brig::BrigImageChannelOrder::DEPTH | brig::BrigImageChannelOrder::DEPTH_STENCIL
    );
    if depth_order != matches!(g, G::_2DDEPTH | G::_2DADEPTH)
        && c.channel_order.raw() < brig::BrigImageChannelOrder::FIRST_USER_DEFINED.raw()
    {
        cx.err(
            "PRM 7.1.4.1",
            at,
            "depth channel orders go with exactly the 2ddepth and 2dadepth geometries",
        );
    }
    check_image_format(cx, at, c);
}

/// PRM 7.1.5: only the channel order and channel type combinations of
/// Table 7-4 are legal (implementation-defined values are not checked).
fn check_image_format(cx: &mut Cx<'_, '_>, at: CodeOffset, c: &brig::BrigOperandConstantImage) {
    let (order, ty) = (c.channel_order.raw(), c.channel_type.raw());
    let Some(&legal) = CHANNEL_TYPES_OF_ORDER.get(usize::from(order)) else {
        return;
    };
    if ty < 16 && legal & (1 << ty) == 0 {
        let msg = format!(
            "channel type {} is not legal with channel order {} (Table 7-4)",
            crate::ops::names::channel_type::text(c.channel_type).unwrap_or("?"),
            crate::ops::names::channel_order::text(c.channel_order).unwrap_or("?")
        );
        cx.err("PRM 7.1.5", at, msg);
    }
}

/// Sampler properties (PRM 7.1.6.2): repeat addressing modes need
/// normalized coordinates.
fn check_sampler_properties(
    cx: &mut Cx<'_, '_>,
    at: CodeOffset,
    c: &brig::BrigOperandConstantSampler,
) {
    use brig::{BrigSamplerAddressing as A, BrigSamplerCoordNormalization as N};
    if c.coord == N::UNNORMALIZED && matches!(c.addressing, A::REPEAT | A::MIRRORED_REPEAT) {
        cx.err(
            "PRM 7.1.6.2",
            at,
            "repeat and mirrored_repeat addressing need normalized coordinates",
        );
    }
    if c.coord.raw() > 1 {
        cx.err("PRM 7.1.6.1", at, "unknown coordinate normalization mode");
    }
}

/// PRM 4.3.10: align(n) is a valid value, at least the natural alignment.
#[inline]
pub(super) fn check_natural_align(cx: &mut Cx<'_, '_>, at: CodeOffset, v: &BrigDirectiveVariable) {
    let elem = v.type_.array_element().unwrap_or(v.type_);
    if v.align.raw() != 0 && v.align.bytes().is_none() {
        cx.err("PRM 4.3.10", at, "bad alignment value");
    }
    if let (Some(a), Some(n)) = (v.align.bytes(), elem.byte_size())
        && a < n
    {
        cx.err(
            "PRM 4.3.10",
            at,
            format!("align({a}) is less than the natural alignment {n} of the type"),
        );
    }
}
