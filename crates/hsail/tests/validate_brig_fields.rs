//! BRIG field values (PRM 18): enumeration and bit mask fields hold values
//! PRM 18.3 defines, reserved fields are 0, and the entry rules of PRM 18
//! that text cannot break (the offset of a 32-bit address, the types of
//! immediates, the memfence scopes, a variable's `dim` and allocation).
//!
//! Each case patches one field of HSAILasm's BRIG for one module that
//! holds an entry of every kind; HSAILasm's BRIG validator
//! (`HSAILasm -disassemble`) must reject the patched module (the oracle),
//! and so must ours, with an error citing the PRM section of the rule.

use brig::{BrigModule, BrigSectionIndex};
use hsail::validate;

/// A module with an entry of every kind the cases patch (HSAILasm
/// accepts it).
const SOURCE: &str = r#"module &m:1:0:$full:$small:$default;
extension "IMAGE";
// c
readonly_u32 &ro = 1;
alloc(agent) global_samp &smp = samp(coord = normalized, filter = linear, addressing = clamp_to_edge);
alloc(agent) global_roimg &img = roimg(geometry = 2d, width = 4, height = 4, channel_type = unorm_int8, channel_order = rgba);
global_b8 &agg[8] = {u8(1), align(4), u32(2)};
fbarrier &fb;
kernel &k(kernarg_u32 %p)
{
	enablebreakexceptions 0;
	fbarrier %lfb;
	ld_kernarg_u32 $s0, [%p];
	add_u32 $s1, $s0, 7;
	ld_global_u32 $s2, [$s1-4];
	lda_readonly_u32 $s3, [&ro];
	cmp_eq_b1_u32 $c0, $s0, $s1;
	cvt_f32_u32 $s4, $s0;
	add_up_f32 $s5, $s4, $s4;
	stof_group_u32_u32 $s6, $s0;
	nullptr_group_u32 $s7;
	activelanecount_u32_b1 $s8, $c0;
	popcount_u32_b32 $s9, $s0;
	atomic_add_global_rlx_system_u32 $s10, [$s1], 1;
	ldqueuereadindex_global_rlx_u64 $d0, [$s1];
	memfence_screl_system;
	queryimage_2d_width_u32_roimg $s11, $d1;
	querysampler_filter_u32 $s12, $d2;
	rdimage_v4_2d_f32_roimg_f32 ($s13, $s14, $s15, $s16), $d1, $d2, ($s4, $s5);
	signal_ld_scacq_b32_sig32 $s17, $d3;
	br @l;
@l:
	ret;
};
"#;

/// One patch: set `bytes` at byte `field` of the `n`-th entry of `kind`
/// (as `brig-dump` names kinds), or with `copy`, as many bytes taken from
/// the same field of the `copy.1`-th entry of kind `copy.0`; the validator
/// must report `rule`, at the patched entry when `at_entry`.
struct Case {
    kind: &'static str,
    n: usize,
    field: usize,
    bytes: &'static [u8],
    rule: &'static str,
    at_entry: bool,
    copy: Option<(&'static str, usize)>,
}

const fn case(
    kind: &'static str,
    n: usize,
    field: usize,
    bytes: &'static [u8],
    rule: &'static str,
) -> Case {
    Case {
        kind,
        n,
        field,
        bytes,
        rule,
        at_entry: true,
        copy: None,
    }
}

/// The cases: reserved fields, enumeration values PRM 18.3 does not
/// define, undefined mask bits, and the entry rules.
const CASES: &[Case] = &[
    // Reserved fields must be 0.
    case("DirectiveControl", 0, 6, &[1], "PRM 18.5.1.4"),
    case("DirectiveKernel", 0, 27, &[1], "PRM 18.5.1.5"),
    case("DirectiveFbarrier", 0, 10, &[1], "PRM 18.5.1.7"),
    case("DirectiveModule", 0, 19, &[1], "PRM 18.5.1.10"),
    case("DirectiveVariable", 0, 27, &[1], "PRM 18.5.1.13"),
    case("InstAddr", 0, 14, &[1], "PRM 18.5.2.2"),
    case("InstAtomic", 0, 18, &[1], "PRM 18.5.2.3"),
    case("InstBr", 0, 13, &[1], "PRM 18.5.2.5"),
    case("InstCmp", 0, 17, &[1], "PRM 18.5.2.6"),
    case("InstImage", 0, 19, &[1], "PRM 18.5.2.8"),
    case("InstLane", 0, 15, &[1], "PRM 18.5.2.9"),
    case("InstMem", 1, 19, &[1], "PRM 18.5.2.10"),
    case("InstMod", 0, 15, &[1], "PRM 18.5.2.12"),
    case("InstQuerySampler", 0, 13, &[1], "PRM 18.5.2.14"),
    case("InstQueue", 0, 14, &[1], "PRM 18.5.2.15"),
    case("InstSeg", 0, 13, &[1], "PRM 18.5.2.16"),
    case("InstSourceType", 0, 14, &[1], "PRM 18.5.2.19"),
    case("OperandAlign", 0, 5, &[1], "PRM 18.6.3"),
    case("OperandConstantBytes", 4, 6, &[1], "PRM 18.6.6"),
    case("OperandConstantImage", 0, 10, &[1], "PRM 18.6.7"),
    case("OperandConstantOperandList", 0, 7, &[1], "PRM 18.6.8"),
    case("OperandConstantSampler", 0, 11, &[1], "PRM 18.6.9"),
    // Types that are no BrigType (PRM 18.3.35).
    case("InstBasic", 0, 7, &[1], "PRM 18.5.2.4"),
    case("InstCvt", 0, 13, &[1], "PRM 18.5.2.7"),
    case("InstSegCvt", 0, 13, &[1], "PRM 18.5.2.17"),
    case("InstSignal", 0, 13, &[1], "PRM 18.5.2.18"),
    case("InstQueryImage", 0, 13, &[1], "PRM 18.5.2.13"),
    case("DirectiveVariable", 0, 13, &[1], "PRM 18.5.1.13"),
    case("OperandConstantBytes", 4, 5, &[1], "PRM 18.6.6"),
    // Enumeration values PRM 18.3 does not define.
    case("InstCmp", 0, 15, &[28], "PRM 18.5.2.6"),
    case("InstMemFence", 0, 14, &[6], "PRM 18.5.2.11"),
    case("OperandAlign", 0, 4, &[10], "PRM 18.6.3"),
    case("OperandConstantSampler", 0, 7, &[2], "PRM 18.6.9"),
    case("OperandConstantImage", 0, 8, &[16], "PRM 18.6.7"),
    // Mask bits PRM 18.3 does not define.
    case("InstMem", 1, 16, &[2], "PRM 18.5.2.10"),
    case("InstMod", 0, 12, &[2], "PRM 18.5.2.12"),
    case("InstSegCvt", 0, 15, &[2], "PRM 18.5.2.17"),
    case("DirectiveVariable", 0, 24, &[5], "PRM 18.5.1.13"),
    case("DirectiveKernel", 0, 24, &[3], "PRM 18.5.1.5"),
    // PRM 18.5.1.13: a non-array variable has dim 0; a readonly variable
    // has agent allocation.
    case("DirectiveVariable", 0, 16, &[1], "PRM 18.5.1.13"),
    case("DirectiveVariable", 0, 26, &[1], "PRM 18.5.1.13"),
    // PRM 18.5.2.10: ld has a width (the align none of ld is an
    // undefined alignment: PRM 18.3.2).
    case("InstMem", 1, 15, &[0], "PRM 18.5.2.10"),
    case("InstMem", 1, 13, &[0], "PRM 18.3.2"),
    // PRM 18.5.1.13: a variable's align is never none.
    case("DirectiveVariable", 0, 15, &[0], "PRM 18.5.1.13"),
    // PRM 4.3.9: a code-block fbarrier is a definition.
    case("DirectiveFbarrier", 1, 8, &[0], "PRM 4.3.9"),
    // PRM 18.5.2.11: the group segment scope is the global one, the image
    // segment scope is none.
    case("InstMemFence", 0, 14, &[3], "PRM 18.5.2.11"),
    case("InstMemFence", 0, 15, &[4], "PRM 18.5.2.11"),
    // PRM 18.6.2: a 32-bit address (small model, 2.9) has offset.hi 0
    // (reported at the instruction).
    Case {
        at_entry: false,
        ..case(
            "OperandAddress",
            1,
            16,
            &[0xff, 0xff, 0xff, 0xff],
            "PRM 18.6.2",
        )
    },
    // PRM 18.5.1.3: a comment's text starts with `//` (here: "&m").
    Case {
        copy: Some(("DirectiveModule", 0)),
        ..case("DirectiveComment", 0, 4, &[0; 4], "PRM 18")
    },
    // PRM 4.6: a module-scope fbarrier's name starts with & (here: "// c").
    Case {
        copy: Some(("DirectiveComment", 0)),
        ..case("DirectiveFbarrier", 0, 4, &[0; 4], "PRM 4.6")
    },
    // PRM 18.6.7, 18.6.9: image constants have an image type, sampler
    // constants type samp.
    case("OperandConstantImage", 0, 4, &[18, 0], "PRM 18"),
    case("OperandConstantSampler", 0, 4, &[19, 0], "PRM 18"),
    // PRM 18.6.1: a control directive's operand has the type it expects
    // (u32 for enablebreakexceptions).
    Case {
        at_entry: false,
        ..case("OperandConstantBytes", 3, 4, &[7], "PRM 18.6.1")
    },
    // PRM 18.6.1: an immediate for a u32 operand has type u32.
    Case {
        at_entry: false,
        ..case("OperandConstantBytes", 4, 4, &[7], "PRM 18.6.1")
    },
];

/// The section and section offset of the `n`-th entry of `kind`.
fn find(brig: &[u8], kind: &str, n: usize) -> (BrigSectionIndex, u32, usize) {
    let m = BrigModule::parse(brig).expect("HSAILasm's BRIG parses");
    let (section, at) = if kind.starts_with("Operand") {
        let at = m
            .operand_entries()
            .filter_map(Result::ok)
            .filter(|(_, o)| brig::dump::operand_kind_name(o) == kind)
            .nth(n)
            .map(|(at, _)| at.get());
        (BrigSectionIndex::OPERAND, at)
    } else {
        let at = m
            .code_entries()
            .filter_map(Result::ok)
            .filter(|(_, c)| brig::dump::code_kind_name(c) == kind)
            .nth(n)
            .map(|(at, _)| at.get());
        (BrigSectionIndex::CODE, at)
    };
    let at = at.unwrap_or_else(|| panic!("no {kind} #{n}"));
    let file = m.sections()[section.raw() as usize].file_offset as usize + at as usize;
    (section, at, file)
}

/// Whether `rule` cites `want` or a subsection of it.
fn cites(rule: &str, want: &str) -> bool {
    rule == want || rule.strip_prefix(want).is_some_and(|r| r.starts_with('.'))
}

#[test]
fn undefined_field_values_are_rejected() {
    if !oracles::hsailasm_available() {
        eprintln!("SKIPPED: HSAILasm is not installed");
        return;
    }
    let brig = oracles::hsailasm_assemble(SOURCE).expect("HSAILasm accepts the module");
    validate::validate_bytes(&brig).expect("the unpatched module is valid");
    let mut failures = Vec::new();
    for c in CASES {
        let (section, at, file) = find(&brig, c.kind, c.n);
        let mut patched = brig.clone();
        let width = c.bytes.len();
        let bytes = match c.copy {
            Some((kind, n)) => {
                let from = find(&brig, kind, n).2 + c.field;
                &brig[from..from + width]
            }
            None => c.bytes,
        };
        patched[file + c.field..file + c.field + width].copy_from_slice(bytes);
        let what = format!("{} #{} byte {} = {:?}", c.kind, c.n, c.field, c.bytes);
        if oracles::hsailasm_disassemble(&patched).is_ok() {
            failures.push(format!("{what}: HSAILasm accepts it; not a case"));
            continue;
        }
        match validate::validate_bytes(&patched) {
            Ok(_) => failures.push(format!("{what}: accepted, expected {}", c.rule)),
            Err(errors) => {
                let found = errors.iter().any(|e| {
                    cites(e.rule, c.rule)
                        && (!c.at_entry || (e.section == section && e.offset == at))
                });
                if !found {
                    let got: Vec<String> = errors.iter().map(ToString::to_string).collect();
                    failures.push(format!(
                        "{what}: no error cites {} at the entry; got:\n    {}",
                        c.rule,
                        got.join("\n    ")
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
