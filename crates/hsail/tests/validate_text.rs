//! Validator errors on HSAIL text, at `file:line:col` through the
//! assembler's source map (`hsail::lower::assemble_validated`).
//!
//! * `invalid_corpus_points_at_the_offending_line`: every
//!   `tests/corpus-invalid/*.hsail` rejected by the validator (not by the
//!   assembler) gets an error citing its rule on the line [`EXPECT`] names
//!   for it (a text fragment of the offending statement, found in the file),
//!   at the offending operand's column when one is named.
//! * `valid_corpus_gives_no_error`: `tests/corpus/**/*.hsail` validate
//!   cleanly from text, and recording the map does not change the bytes.
//! * `wide_integer_constants_keep_their_low_bits`: an integer constant wider
//!   than its type is not an error: PRM 4.8.1 uses the type's least
//!   significant bits and ignores the rest (as HSAILasm does).

use std::path::{Path, PathBuf};

use hsail::lower::{assemble_validated, assemble_with_map};

fn root() -> PathBuf {
    oracles::workspace_root()
}

/// Where each negative-corpus file breaks its rule: `(file stem, line,
/// occurrence, operand)`. The expected line is the `occurrence`-th
/// (0-based) non-comment line containing `line` (or, written `=text`,
/// whose trimmed text is `text`); when `operand` is given, the caret must
/// start at that text in the line.
const EXPECT: &[(&str, &str, usize, Option<&str>)] = &[
    // Declarations, initializers, constants, directives (cases_audit_decl.py).
    ("initializer_too_few", "global_u32 &a[8]", 0, None),
    ("initializer_aggregate_size", "global_b8 &a[8]", 0, None),
    ("initializer_not_whole_elements", "global_b32 &a[]", 0, None),
    ("initializer_image_array_size", "global_roimg &ord", 0, None),
    ("initializer_signal_integer", "global_sig64 &s", 0, None),
    ("initializer_image_program_alloc", "global_samp &s", 0, None),
    ("bit_typed_constant", "global_b32 &a", 0, None),
    ("array_constant_nested", "global_u32 &a[1]", 0, None),
    ("aggregate_only_align", "global_b8 &a[]", 0, None),
    ("base_f64_pragma", "pragma 0, 1.5", 0, None),
    ("base_f64_aggregate", "global_b8 &x[]", 0, None),
    ("indirect_not_function", "indirect and", 0, None),
    ("decl_signature", "decl signature", 0, None),
    ("arg_block_global_variable", "global_u32 %x", 0, None),
    ("kernel_flexible_array", "kernel &k2", 0, None),
    ("arg_block_array_no_dim", "arg_u32 %x[]", 0, None),
    (
        "argument_align_below_natural",
        "function &f()(align(2)",
        0,
        None,
    ),
    ("argument_const", "function &f()(const", 0, None),
    ("decl_def_align_mismatch", "=global_u32 &x;", 0, None),
    (
        "function_decl_argument_align",
        "function &f()(arg_u32 %r) {",
        0,
        None,
    ),
    ("reserved_identifier", "global_u32 &__hsa_x", 0, None),
    ("pragma_image_without_extension", "pragma roimg", 0, None),
    ("core_with_empty_extension", "extension \"\"", 0, None),
    ("loc_line_zero", "loc 0", 0, None),
    (
        "control_repeated_value",
        "maxflatworkgroupsize 128",
        0,
        None,
    ),
    (
        "control_requireddim_sizes",
        "requiredworkgroupsize 64, 2, 1",
        0,
        None,
    ),
    (
        "control_maxflat_product",
        "maxflatworkgroupsize 64",
        0,
        None,
    ),
    ("base_f64_argument", "function &f()(arg_f64", 0, None),
    ("icall_handle_size", "icall_u64", 0, None),
    ("image_private_variable", "private_roimg %x", 0, None),
    ("image_property_twice", "global_roimg &a", 0, None),
    ("indirect_defines_group", "group_u32 %x", 0, None),
    ("indirect_callee_module_private", "ld_private_u32", 0, None),
    ("indirect_fbarrier", "waitfbar &fb", 0, None),
    ("small_sig64_argument", "function &f()(arg_sig64", 0, None),
    ("const_without_initializer", "const global_u32 &x", 0, None),
    ("pragma_register_module", "pragma \"x\"", 0, None),
    ("initializer_aggregate_non_bit", "global_u32 &x[2]", 0, None),
    ("initializer_array_for_scalar", "global_u32 &x", 0, None),
    ("initializer_array_type", "global_s32 &x[2]", 0, None),
    ("signal_op_type", "signal_ld_rlx_u64_sig64", 0, None),
    ("signal_wait_type", "signal_wait_eq_rlx_u64_sig64", 0, None),
    ("br_width", "br_width(1)", 0, None),
    ("sig32_large_model", "ld_global_sig32", 0, None),
    ("sig64_small_variable", "global_sig64 &x", 0, None),
    ("cmp_subword_source", "cmp_eq_b1_u16", 0, None),
    ("cmp_packed_control", "cmp_eq_ps_u8x4_u8x4", 0, None),
    (
        "detectexcept_wavesize",
        "setdetectexcept_u32",
        0,
        Some("WAVESIZE"),
    ),
    ("dimension_range", "workitemid_u32", 1, Some("3;")),
    ("dimension_wavesize", "gridsize_u32", 0, Some("WAVESIZE")),
    ("flat_segment_suffix", "ld_flat_u32", 0, None),
    ("flat_variable_address", "ld_u32", 0, Some("[&g]")),
    (
        "ld_opaque_of_plain_variable",
        "ld_global_sig64",
        0,
        Some("[&u]"),
    ),
    ("ld_opaque_type_mismatch", "ld_global_u64", 0, Some("[&s]")),
    ("signal_handle_immediate", "signalnoret_add", 0, Some("0,")),
    ("spill_address_register", "ld_spill_u32", 0, Some("[$s2]")),
    ("unpackcvt_range", "unpackcvt_f32_u8x4", 1, Some("4;")),
    ("vector_suffix_count", "ld_v2_u32", 0, Some("($s1")),
    // audit-mem (PRM ch. 6-12)
    ("atomicnoret_cas", "atomicnoret_cas", 0, None),
    ("image_channel_combination", "global_roimg &img", 0, None),
    ("rdimage_dest_type", "rdimage_v4_2d_f16", 0, None),
    ("wavebarrier_width", "wavebarrier_width(64)", 0, None),
    ("ldf_register", "ldf_u32", 0, Some("$s2")),
    ("activelanemask_v4", "activelanemask_b64_b1", 0, Some("$d0")),
    ("icall_type_model", "icall_u32", 0, None),
    ("icall_immediate", "icall_u64", 0, Some("0 ()")),
    ("kernargbaseptr_type_model", "kernargbaseptr_u32", 0, None),
    ("wavesize_b128", "mov_b128", 0, Some("WAVESIZE")),
    ("actual_arg_twice", "call &f () (%x, %x)", 0, None),
    ("actual_arg_unused", "call &f () (%x)", 0, None),
    ("address_register_size", "ld_global_u32", 0, Some("[$s2]")),
    ("align_below_natural", "align(2) global_u32 &x", 0, None),
    ("alloca_in_arg_block", "alloca_u32 $s0, 4", 0, None),
    ("arg_block_two_calls", "={", 1, None),
    ("arg_var_after_statement", "arg_u32 %y", 0, None),
    ("array_without_size", "global_u32 &a[]", 0, None),
    (
        "atomic_64_small",
        "atomic_add_global_rlx_system_u64",
        0,
        None,
    ),
    (
        "atomic_group_scope",
        "atomic_add_group_rlx_agent_u32",
        0,
        None,
    ),
    (
        "atomic_ld_release",
        "atomic_ld_global_screl_system_b32",
        0,
        None,
    ),
    (
        "atomic_op_type",
        "atomic_and_global_rlx_system_u32",
        0,
        None,
    ),
    ("b1_variable", "global_b1 &x", 0, None),
    ("base_f64", "add_ftz_f64", 0, None),
    ("base_f64_variable", "global_f64 &x", 0, None),
    ("base_ftz_required", "add_f32", 0, None),
    ("base_rounding", "add_ftz_up_f32", 0, None),
    ("branch_in_arg_block", "br @l", 0, Some("@l")),
    ("branch_into_arg_block", "br @in", 0, Some("@in")),
    // Register limits are per code block: at the kernel.
    ("c_register_limit", "kernel &k()", 0, None),
    ("call_arg_align", "call &f () (%x)", 0, Some("(%x)")),
    ("call_arg_count", "call &f () (%x)", 0, None),
    ("call_arg_type", "call &f () (%x)", 0, Some("(%x)")),
    ("call_kernel", "call &k2", 0, None),
    ("call_outside_arg_block", "call &f () ()", 0, None),
    ("cmp_bit_order", "cmp_lt_b1_b32", 0, None),
    ("cmp_packed_dest", "cmp_eq_pp_s8x4_s8x4", 0, None),
    ("const_group", "const group_u32 &g", 0, None),
    (
        "control_after_instruction",
        "maxflatworkgroupsize 64",
        0,
        None,
    ),
    ("control_zero_size", "maxflatworkgroupsize 0", 0, None),
    (
        "core_with_other_extension",
        "extension \"amd:gcn\"",
        0,
        None,
    ),
    ("cvt_rounding_kind", "cvt_up_u32_f32", 0, None),
    ("cvt_same_size_int", "cvt_u32_s32", 0, None),
    ("decl_def_mismatch", "prog global_u64 &x", 0, None),
    ("extension_after_decl", "extension \"IMAGE\"", 0, None),
    ("ftos_global", "ftos_global_u64_u64", 0, None),
    ("ftz_on_integer", "add_ftz_u32", 0, None),
    ("group_initializer", "group_u32 &g = 1", 0, None),
    ("icall_base", "icall_u64", 0, None),
    ("image_without_extension", "=imagefence;", 0, None),
    ("immediate_destination", "add_u32 1, $s2, $s3", 0, Some("1")),
    ("input_formal_stored", "st_arg_u32 1, [%p]", 0, Some("[%p]")),
    ("kernarg_local", "kernarg_u32 %ka", 0, None),
    ("lda_arg", "lda_arg_u32", 0, None),
    ("lda_spill", "lda_spill_u32", 0, None),
    (
        "ldimage_coordinates",
        "ldimage_v4_2d",
        0,
        Some("($s4, $s5, $s6)"),
    ),
    ("memfence_relaxed", "memfence_rlx_system", 0, None),
    ("module_decl_undefined", "decl global_u32 &x", 0, None),
    ("module_name_reused", "global_u32 &m", 0, None),
    ("mulhi_float", "mulhi_f32", 0, None),
    ("operand_count", "add_u32 $s1, $s2, $s3, $s4", 0, None),
    (
        "output_formal_loaded",
        "ld_arg_u32 $s0, [%r]",
        0,
        Some("[%r]"),
    ),
    ("pack_source_type", "pack_u8x4_u8", 0, None),
    ("packing_missing", "add_u8x4", 0, None),
    ("packing_on_unpacked", "add_pp_u32", 0, None),
    ("packing_sat_on_float", "add_pp_sat_f16x2", 0, None),
    ("queryimage_depth_2d", "queryimage_2d_depth", 0, None),
    ("rdimage_rwimg", "rdimage_v4_2d_f32_rwimg", 0, None),
    ("redefinition", "global_u32 &x", 1, None),
    ("register_size", "add_u64 $d1, $s2, $d3", 0, Some("$s2")),
    ("requireddim_range", "requireddim 4", 0, None),
    ("ret_in_arg_block", "=ret;", 0, None),
    ("rounding_on_integer", "add_up_u32", 0, None),
    ("sampler_repeat_unnormalized", "global_samp &s", 0, None),
    ("sdq_register_limit", "kernel &k()", 0, None),
    ("segmentp_flat", "segmentp_flat", 0, None),
    ("shuffle_128bit", "shuffle_u8x16", 0, None),
    ("signal_type_model", "signal_ld_scacq_s32_sig64", 0, None),
    (
        "signal_value_size",
        "signal_wait_eq_scacq_s64_sig32",
        0,
        None,
    ),
    ("signalnoret_exch", "signalnoret_exch", 0, None),
    ("st_kernarg", "st_kernarg_u32", 0, None),
    ("st_opaque_global", "st_global_samp", 0, None),
    ("st_readonly", "st_readonly_u32", 0, None),
    (
        "two_output_args",
        "function &f(arg_u32 %a, arg_u32 %b)",
        0,
        None,
    ),
    ("type_not_allowed", "and_u32", 0, None),
    ("variable_after_statement", "private_u32 %p", 0, None),
    (
        "vector_duplicate_dest",
        "ld_v2_global_u32",
        0,
        Some("($s1, $s1)"),
    ),
    (
        "wavesize_float",
        "add_f32 $s1, $s2, WAVESIZE",
        0,
        Some("WAVESIZE"),
    ),
    // audit-alu (tests/corpus-invalid/cases_audit_alu.py)
    ("nullptr_global", "nullptr_global_u64", 0, None),
    ("nullptr_global_small", "nullptr_global_u32", 0, None),
    ("nullptr_readonly", "nullptr_readonly_u64", 0, None),
    ("nullptr_arg", "nullptr_arg_u32", 0, None),
    ("nullptr_spill", "nullptr_spill_u32", 0, None),
    (
        "combine_vector_count",
        "combine_v2_b128_b32",
        0,
        Some("($s0"),
    ),
    ("combine_too_many", "combine_v4_b64_b32", 0, Some("($s0")),
    ("combine_same_size", "combine_v2_b64_b64", 0, None),
    ("expand_vector_count", "expand_v4_b32_b64", 0, Some("($s0")),
    ("expand_too_few", "expand_v2_b32_b128", 0, Some("($s0")),
    ("fma_packed", "fma_pp_f32x2", 0, None),
    // The sentence sweep (cases_sweep.py).
    ("control_callee_value", "maxdynamicgroupsize 20", 0, None),
    (
        "control_callee_requireddim",
        "requiredworkgroupsize 16, 16, 1",
        0,
        None,
    ),
    (
        "image_handle_output_actual",
        "st_arg_roimg $d0, [%a]",
        0,
        Some("[%a]"),
    ),
    ("whitespace_between_tokens", "add_u32$s1", 0, Some("$s1")),
    ("arg_block_conditional_call", "cbr_b1 $c0, @l", 0, None),
];

/// Files our assembler rejects before the validator runs (its errors are
/// at HSAILasm's positions, checked by `asm_diagnostics`).
const ASSEMBLER_REJECTS: &[&str] = &[
    "alloca_equiv",
    "arg_block_nested",
    "arg_variable_outside_block",
    "duplicate_label",
    "image_missing_height",
    "image_geometry_missing",
    "sbr_comma",
    "use_before_declaration",
];

/// `(line, col)` (1-based) the entry for a file expects.
fn expected_position(text: &str, entry: &(&str, &str, usize, Option<&str>)) -> (u32, u32) {
    let (stem, pattern, nth, operand) = *entry;
    let matches = |l: &str| match pattern.strip_prefix('=') {
        Some(exact) => l.trim() == exact,
        None => l.contains(pattern),
    };
    let (i, line) = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//") && matches(l))
        .nth(nth)
        .unwrap_or_else(|| panic!("{stem}: no line #{nth} matching {pattern:?}"));
    let col = match operand {
        Some(op) => line
            .find(op)
            .unwrap_or_else(|| panic!("{stem}: {op:?} not in {line:?}")),
        None => line.len() - line.trim_start().len(),
    };
    (i as u32 + 1, col as u32 + 1)
}

fn rule_of(text: &str) -> &str {
    text.lines()
        .next()
        .and_then(|l| l.strip_prefix("// reject: "))
        .and_then(|r| r.split_once(": "))
        .map(|(section, _)| section)
        .expect("`// reject: PRM x.y: …` header")
}

/// Whether `message` cites `section` or a subsection of it.
fn cites(message: &str, section: &str) -> bool {
    message
        .strip_prefix(section)
        .is_some_and(|rest| rest.starts_with(':') || rest.starts_with('.'))
}

#[test]
fn invalid_corpus_points_at_the_offending_line() {
    let files = oracles::files_with_extension(&root().join("tests/corpus-invalid"), "hsail");
    assert!(files.len() > 50, "tests/corpus-invalid not found");
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in &files {
        let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(f).unwrap();
        let section = rule_of(&text);
        let diagnostics = match assemble_validated(&text, &name, false) {
            Ok(_) => {
                failures.push(format!("{name}: accepted (expected {section})"));
                continue;
            }
            Err(d) => d,
        };
        if ASSEMBLER_REJECTS.contains(&stem.as_str()) {
            if diagnostics.iter().any(|d| d.message.starts_with("PRM ")) {
                failures.push(format!(
                    "{name}: listed as rejected by the assembler, but the validator ran:\n{diagnostics}"
                ));
            }
            continue;
        }
        let Some(entry) = EXPECT.iter().find(|e| e.0 == stem) else {
            failures.push(format!(
                "{name}: no expected position in EXPECT (validate_text.rs):\n{diagnostics}"
            ));
            continue;
        };
        let want = expected_position(&text, entry);
        let found = diagnostics
            .iter()
            .filter(|d| cites(&d.message, section))
            .map(|d| (d.line, d.col))
            .collect::<Vec<_>>();
        let ok = if entry.3.is_some() {
            found.contains(&want)
        } else {
            found.iter().any(|&(line, _)| line == want.0)
        };
        if ok {
            checked += 1;
        } else {
            failures.push(format!(
                "{name}: want {section} at {}:{}{}, got:\n{diagnostics}",
                want.0,
                want.1,
                if entry.3.is_some() { "" } else { " (line)" }
            ));
        }
    }
    eprintln!("validate_text: {checked} files rejected at the offending line");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

#[test]
fn valid_corpus_gives_no_error() {
    let files = oracles::files_with_extension(&root().join("tests/corpus"), "hsail");
    assert!(files.len() > 50, "corpus not found");
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let name = rel(f);
        match assemble_validated(&text, &name, true) {
            Ok(brig) => {
                let plain = hsail::assemble(&text, &name).expect("assembles");
                if brig != plain {
                    failures.push(format!("{name}: the source map changed the bytes"));
                }
            }
            Err(d) => failures.push(format!("{name}:\n{d}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const HEADER: &str = "module &m:1:0:$full:$large:$default;\nkernel &k()\n{\n";

/// Integer constants wider than the type they are read as.
const WIDE: &[&str] = &[
    "add_u32 $s1, $s2, 0x100000000;",
    "add_s32 $s1, $s2, 4294967296;",
    "add_s32 $s1, $s2, -2147483649;",
    "mov_b32 $s1, -0x80000001;",
    "add_u64 $d1, $d2, -0x8000000000000001;",
    "st_global_u16 65536, [$d1];",
    "st_global_s8 -129, [$d1];",
    "st_global_u8 300, [$d1];",
    "mov_b32 $s1, u8x4(1, 2, 3, 256);",
];

/// PRM 4.8.1: "The type size determines the number of least significant
/// bits of the 64-bit integer constant value that are used; any remaining
/// bits are ignored." Such constants validate, and the bytes are
/// HSAILasm's.
#[test]
fn wide_integer_constants_keep_their_low_bits() {
    let oracle = oracles::hsailasm_available();
    for stmt in WIDE {
        let src = format!("{HEADER}\t{stmt}\n\tret;\n}};\n");
        let ours = match assemble_validated(&src, "wide.hsail", true) {
            Ok(brig) => brig,
            Err(d) => panic!("{stmt}: rejected:\n{d}"),
        };
        if oracle {
            let theirs = oracles::hsailasm_assemble(&src).expect("HSAILasm accepts it");
            assert!(ours == theirs, "{stmt}: BRIG differs from HSAILasm's");
        }
    }
}

/// The source map names the instruction for an error without an operand
/// and the operand's own token for one with it.
#[test]
fn span_of_names_statements_and_operands() {
    let src = format!("{HEADER}\tadd_u32 $s1, $s2, 7;\n\tret;\n}};\n");
    let (brig, map) = assemble_with_map(&src, "m.hsail", true).unwrap();
    let module = brig::BrigModule::parse(&brig).unwrap();
    let add = module
        .code_entries()
        .filter_map(Result::ok)
        .find(|(_, c)| brig::dump::code_kind_name(c) == "InstBasic")
        .map(|(at, _)| at.get())
        .expect("an instruction");
    let code = brig::BrigSectionIndex::CODE;
    let text = |r: std::ops::Range<usize>| &src[r];
    assert_eq!(
        text(map.span_of(code, add, None).unwrap()),
        "add_u32 $s1, $s2, 7;"
    );
    assert_eq!(text(map.span_of(code, add, Some(1)).unwrap()), "$s2");
    assert_eq!(text(map.span_of(code, add, Some(2)).unwrap()), "7");
    assert_eq!(map.span_of(brig::BrigSectionIndex::new(0), 0, None), None);
}
