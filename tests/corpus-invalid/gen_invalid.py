"""Writes the negative corpus: one file per rule, `<name>.hsail`.

Each file starts with `// reject: PRM <section>: <rule>` (hand-written
below) and `// hsailasm: rejects` or `// hsailasm: accepts (PRM stricter:
...)`, the verdict HSAILasm gives on the file when this script runs. Files
HSAILasm rejects may carry `// variant:` / `// patch:` lines that let the
test build the invalid BRIG from an accepted variant (see
crates/hsail/tests/validate_corpus.rs, `apply_patch`).

Run: python3 tests/corpus-invalid/gen_invalid.py [NAME...]
"""
import os, subprocess, sys, tempfile
tmpdir = tempfile.mkdtemp(prefix='gen_invalid')
OUT = os.path.dirname(os.path.abspath(__file__))
os.makedirs(OUT, exist_ok=True)
HDR = {'fl': 'module &m:1:0:$full:$large:$default;', 'fs': 'module &m:1:0:$full:$small:$default;',
       'bl': 'module &m:1:0:$base:$large:$default;', 'bs': 'module &m:1:0:$base:$small:$near;'}
cases = []
def case(name, prm, rule, body, hdr='fl', pre='', kernel=True, note=''):
    cases.append((name, prm, rule, body, hdr, pre, kernel, note))
# ---- per instruction (ch. 5-11)
case('type_not_allowed', '5.6', 'and takes only b1, b32, b64', 'and_u32 $s1, $s2, $s3;')
case('ftz_on_integer', '4.19.3', 'ftz only on floating-point operations', 'add_ftz_u32 $s1, $s2, $s3;')
case('rounding_on_integer', '4.19.2', 'no rounding modifier on integer arithmetic', 'add_up_u32 $s1, $s2, $s3;')
case('packing_missing', '4.14', 'packed types need a packing control', 'add_u8x4 $s1, $s2, $s3;')
case('packing_sat_on_float', '4.14', 'sat packing only on packed integers', 'add_pp_sat_f16x2 $s1, $s2, $s3;')
case('packing_on_unpacked', '4.14', 'no packing control on unpacked types', 'add_pp_u32 $s1, $s2, $s3;')
case('register_size', '4.16.2', 'register class must match the operand type', 'add_u64 $d1, $s2, $d3;')
case('immediate_destination', '4.16', 'the destination must be a register', 'add_u32 1, $s2, $s3;')
case('operand_count', '18.7', 'each opcode has a fixed operand count', 'add_u32 $s1, $s2, $s3, $s4;')
case('st_readonly', '6.4', 'st cannot write the readonly segment', 'st_readonly_u32 $s1, [0];')
case('st_kernarg', '6.4', 'st cannot write the kernarg segment', 'st_kernarg_u32 $s1, [0];')
case('atomic_group_scope', '6.2.2', 'group-segment atomics take only wave or wg scope', 'atomic_add_group_rlx_agent_u32 $s1, [0], 1;')
case('atomic_ld_release', '6.2.1', 'atomic ld cannot have release order', 'atomic_ld_global_screl_system_b32 $s1, [$d0];')
case('atomic_op_type', '6.6', 'atomic and takes bit types', 'atomic_and_global_rlx_system_u32 $s1, [$d0], 1;')
case('atomic_64_small', '2.9', 'no 64-bit atomics in the small machine model', 'atomic_add_global_rlx_system_u64 $d1, [$s0], 1;', hdr='fs')
case('signal_type_model', '2.9', 'sig64 is not supported in the small machine model', 'signal_ld_scacq_s32_sig64 $s1, $d0;', hdr='fs')
case('address_register_size', '2.9', 'global addresses are 64-bit in the large model', 'ld_global_u32 $s1, [$s2];')
case('cvt_same_size_int', '5.19', 'no cvt between same-size integer types', 'cvt_u32_s32 $s1, $s2;')
case('cvt_rounding_kind', '5.19.3', 'float-to-int cvt takes an integer rounding', 'cvt_up_u32_f32 $s1, $s2;')
case('base_f64', '16.2.1', 'the base profile has no f64', 'add_ftz_f64 $d1, $d2, $d3;', hdr='bl')
case('base_ftz_required', '16.2.1', 'the base profile requires ftz on float arithmetic', 'add_f32 $s1, $s2, $s3;', hdr='bl')
case('base_rounding', '16.2.1', 'the base profile allows only the default rounding', 'add_ftz_up_f32 $s1, $s2, $s3;', hdr='bl')
case('cmp_bit_order', '5.18', 'bit-type compares allow only eq and ne', 'cmp_lt_b1_b32 $c1, $s2, $s3;')
case('image_without_extension', '13.1.2', 'image instructions need extension IMAGE', 'imagefence;')
case('lda_spill', '5.8', 'lda cannot take the spill segment', 'spill_u32 %sp;\n\tlda_spill_u32 $s1, [%sp];')
case('segmentp_flat', '5.16', 'segmentp takes global, group or private', 'segmentp_flat_b1_u64 $c1, $d2;')
case('ftos_global', '5.17', 'ftos/stof take group or private', 'ftos_global_u64_u64 $d1, $d2;')
case('vector_duplicate_dest', '4.17', 'destinations of a vector operand are distinct', 'ld_v2_global_u32 ($s1, $s1), [$d2];')
case('wavesize_float', '2.6.2', 'WAVESIZE is an integer value', 'add_f32 $s1, $s2, WAVESIZE;')
case('memfence_relaxed', '6.9', 'memfence needs an acquire or release order', 'memfence_rlx_system;')
case('st_opaque_global', '6.4', 'opaque values are stored only to the arg segment', 'st_global_samp $d1, [$d2];', pre='', note='IMAGE')
case('cmp_packed_dest', '5.18', 'packed compares write the unsigned packed type of the source', 'cmp_eq_pp_s8x4_s8x4 $s1, $s2, $s3;')
case('pack_source_type', '5.9', 'pack of 8-bit elements takes a 32-bit scalar', 'pack_u8x4_u8 $s1, $s2, $s3, 1;')
case('signalnoret_exch', '6.8', 'signalnoret has no exch', 'signalnoret_exch_rlx_b64_sig64 $d0, 1;')
case('shuffle_128bit', '5.9', 'shuffle takes 32- and 64-bit packed types', 'shuffle_u8x16 $q1, $q2, $q3, 0;')
case('mulhi_float', '5.11', 'mulhi has no float form', 'mulhi_f32 $s1, $s2, $s3;')
case('icall_base', '16.2.1', 'the base profile does not support icall', '', hdr='bl', kernel=None)
# ---- limits
case('c_register_limit', '4.7', 'at most 128 $c registers (Appendix A)', 'cmp_eq_b1_u32 $c128, $s1, $s2;')
case('sdq_register_limit', '4.7', 's + 2d + 4q register pool is at most 2048 (Appendix A)', 'add_u32 $s2047, $s1, $s2;\n\tadd_u64 $d1, $d2, $d3;')
# ---- declarations
case('redefinition', '4.3', 'a name is defined at most once', '', pre='global_u32 &x;\nglobal_u32 &x;', kernel=False)
case('decl_def_mismatch', '4.3.10', 'a declaration and its definition agree', '', pre='decl prog global_u32 &x;\nprog global_u64 &x;', kernel=False)
case('module_decl_undefined', '4.12.2', 'a module-linkage declaration is defined in the module', '', pre='decl global_u32 &x;', kernel=False)
case('b1_variable', '4.3.8', 'variables cannot have type b1', '', pre='global_b1 &x;', kernel=False)
case('group_initializer', '4.10', 'only global and readonly variables have initializers', '', pre='group_u32 &g = 1;', kernel=False)
case('two_output_args', '10.3', 'a function has at most one output argument', '', pre='function &f(arg_u32 %a, arg_u32 %b)() { ret; };', kernel=False)
case('array_without_size', '4.3.8', 'an array definition without initializer needs a size', '', pre='global_u32 &a[];', kernel=False)
case('align_below_natural', '4.3.10', 'align(n) is at least the natural alignment', '', pre='align(2) global_u32 &x;', kernel=False)
case('const_group', '4.3.10', 'const applies to global and readonly variables', '', pre='const group_u32 &g;', kernel=False)
case('extension_after_decl', '13.1', 'extension directives come first', '', pre='global_u32 &x;\nextension "IMAGE";', kernel=False)
case('kernarg_local', '4.3.8', 'kernarg variables are only kernel arguments', 'kernarg_u32 %ka;')
# ---- code structure
case('duplicate_label', '4.9', 'a label is defined once per code block', '@a:\n@a:\n\tret;')
case('call_outside_arg_block', '10.2', 'calls are inside arg blocks', 'call &f () ();', pre='function &f()() { ret; };')
case('call_arg_count', '10.2', 'a call passes as many arguments as the callee takes', '{\n\t\targ_u32 %x;\n\t\tcall &f () (%x);\n\t}', pre='function &f()() { ret; };')
case('call_arg_type', '10.2', 'call arguments match the parameter types', '{\n\t\targ_u64 %x;\n\t\tcall &f () (%x);\n\t}', pre='function &f()(arg_u32 %p) { ret; };')
case('arg_block_two_calls', '4.3.6', 'an arg block contains exactly one call', '{\n\t\tcall &f () ();\n\t\tcall &f () ();\n\t}', pre='function &f()() { ret; };')
case('arg_block_nested', '4.3.6', 'arg blocks are not nested', '{\n\t\t{\n\t\t\tcall &f () ();\n\t\t}\n\t}', pre='function &f()() { ret; };')
case('ret_in_arg_block', '10.2', 'ret cannot be inside an arg block', '{\n\t\tret;\n\t\tcall &f () ();\n\t}', pre='function &f()() { ret; };')
case('arg_variable_outside_block', '4.3.6', 'arg variables are declared inside arg blocks', 'arg_u32 %x;', pre='function &f()(arg_u32 %p) { ret; };')
case('branch_in_arg_block', '10.2', 'no branch into or out of an arg block', '{\n\t\tbr @l;\n\t\tcall &f () ();\n\t}\n@l:\n\tret;', pre='function &f()() { ret; };')
case('variable_after_statement', '4.3.5', 'code block definitions precede statements', 'add_u32 $s1, $s2, $s3;\n\tprivate_u32 %p;')
case('arg_var_after_statement', '4.3.6', 'arg block definitions precede its statements', '{\n\t\targ_u32 %x;\n\t\tst_arg_u32 0, [%x];\n\t\targ_u32 %y;\n\t\tcall &f () (%x, %y);\n\t}', pre='function &f()(arg_u32 %p, arg_u32 %q) { ret; };')
case('actual_arg_unused', '10.2', 'every actual argument is passed to the call', '{\n\t\targ_u32 %x;\n\t\targ_u32 %unused;\n\t\tcall &f () (%x);\n\t}', pre='function &f()(arg_u32 %p) { ret; };')
case('actual_arg_twice', '10.2', 'an actual argument appears once in the call', '{\n\t\targ_u32 %x;\n\t\tcall &f () (%x, %x);\n\t}', pre='function &f()(arg_u32 %p, arg_u32 %q) { ret; };')
case('call_arg_align', '10.2', 'actual and formal arguments have the same alignment', '{\n\t\talign(8) arg_u32 %x;\n\t\tcall &f () (%x);\n\t}', pre='function &f()(arg_u32 %p) { ret; };')
case('input_formal_stored', '10.2', 'input formal arguments are only read with ld', '', pre='function &f()(arg_u32 %p) {\n\tst_arg_u32 1, [%p];\n\tret;\n};', kernel=False)
case('output_formal_loaded', '10.2', 'the output formal argument is only written with st', '', pre='function &f(arg_u32 %r)() {\n\tld_arg_u32 $s0, [%r];\n\tret;\n};', kernel=False)
case('branch_into_arg_block', '10.2', 'no branch into an arg block', 'br @in;\n\t{\n@in:\n\t\tcall &f () ();\n\t}', pre='function &f()() { ret; };')
case('control_after_instruction', '13.4', 'control directives precede the statements of the code block', 'nop;\n\tmaxflatworkgroupsize 64;')
case('core_with_other_extension', '13.1.1', 'CORE excludes every other extension', 'nop;', pre='extension "CORE";\nextension "amd:gcn";')
case('image_missing_height', '7.1.7', 'a 2d image needs a height', 'nop;', pre='alloc(agent) global_roimg &img = roimg(geometry = 2d, width = 4, channel_type = unorm_int8, channel_order = rgba);', note='IMAGE')
case('sampler_repeat_unnormalized', '7.1.6.2', 'repeat addressing needs normalized coordinates', 'nop;', pre='alloc(agent) global_samp &s = samp(coord = unnormalized, filter = nearest, addressing = repeat);', note='IMAGE')
case('rdimage_rwimg', '7.2', 'rdimage reads only roimg', 'rdimage_v4_2d_f32_rwimg_f32 ($s0, $s1, $s2, $s3), $d0, $d1, ($s4, $s5);', note='IMAGE')
case('queryimage_depth_2d', '7.5', 'depth exists only for 3d images', 'queryimage_2d_depth_u32_roimg $s0, $d0;', note='IMAGE')
case('ldimage_coordinates', '7.3', 'the geometry fixes the number of coordinates', 'ldimage_v4_2d_u32_roimg_u32 ($s0, $s1, $s2, $s3), $d0, ($s4, $s5, $s6);', note='IMAGE')
case('call_kernel', '10.6', 'kernels cannot be called', '{\n\t\tcall &k2 () ();\n\t}', pre='kernel &k2() { ret; };')
case('base_f64_variable', '16.2.1', 'the base profile has no f64 variables', '', hdr='bl', pre='global_f64 &x;', kernel=False)
case('module_name_reused', '4.6.2', 'the module name is a module-scope identifier', '', pre='global_u32 &m;', kernel=False)
case('use_before_declaration', '4.6.2', 'module-scope names are visible from their declaration on', 'ld_global_u32 $s1, [&g];\n\tret;\n};\nglobal_u32 &g;\nkernel &k2()\n{\n\tret;')
case('lda_arg', '5.8', 'lda takes flat, global, group, private, kernarg or readonly', '', pre='function &f()(arg_u32 %p) {\n\tlda_arg_u32 $s0, [%p];\n\tret;\n};', kernel=False)
case('alloca_in_arg_block', '10.2', 'no alloca in an arg block', '{\n\t\talloca_u32 $s0, 4;\n\t\tcall &f () ();\n\t}', pre='function &f()() { ret; };')
case('signal_value_size', '6.8', 'signal values are 32 bits in the small model', 'signal_wait_eq_scacq_s64_sig32 $d0, $d1, 0;', hdr='fs')
case('requireddim_range', '13.4', 'requireddim is 1, 2 or 3', 'requireddim 4;')
case('control_zero_size', '13.4', 'sizes in control directives are greater than 0', 'maxflatworkgroupsize 0;')
# ---- found by mutating valid programs against HSAILasm (scripts/mutate_validate.py)
case('flat_variable_address', '4.18', 'a flat address cannot name a variable', 'ld_u32 $s1, [&g];', pre='global_u32 &g;')
case('wavesize_b128', '2.6.2', 'WAVESIZE stands for values of at most 64 bits', 'mov_b128 $q1, WAVESIZE;')
case('dimension_range', '11.1', 'dimNumber is 0, 1 or 2', 'workitemid_u32 $s0, 2;\n\tworkitemid_u32 $s1, 3;')  # the first instruction, in range, has the second's shape: the instruction memo keeps them apart
case('dimension_wavesize', '11.1', 'dimNumber cannot be WAVESIZE', 'gridsize_u32 $s1, WAVESIZE;')
case('unpackcvt_range', '5.15', 'the unpackcvt element is 0, 1, 2 or 3', 'unpackcvt_f32_u8x4 $s1, $s2, 3;\n\tunpackcvt_f32_u8x4 $s1, $s2, 4;')  # the first instruction, in range, has the second's shape: the instruction memo keeps them apart
case('detectexcept_wavesize', '11.2', 'exceptionsNumber cannot be WAVESIZE', 'setdetectexcept_u32 WAVESIZE;')
case('signal_handle_immediate', '4.16', 'the signal operand is a register (18.7.2)', 'signalnoret_add_rlx_u64_sig64 0, $d1;')
case('cmp_subword_source', '5.18', 'compare sources are 32 or 64 bits (16 only for f16)', 'cmp_eq_b1_u16 $c1, $s1, $s2;')
case('spill_address_register', '5.8', 'spill addresses name a variable (their address cannot be taken)', 'ld_spill_u32 $s1, [$s2];')
case('ld_opaque_type_mismatch', '6.3', 'an opaque variable is loaded with its own type', 'ld_global_u64 $d1, [&s];', pre='global_sig64 &s;')
case('cmp_packed_control', '5.18', 'a packed compare takes the packing control pp only (Table 5-25)', 'cmp_eq_ps_u8x4_u8x4 $s1, $s2, $s3;')
case('ld_opaque_of_plain_variable', '6.3', 'an opaque type is loaded only from a variable of that type', 'ld_global_sig64 $d1, [&u];', pre='global_u64 &u;')
case('vector_suffix_count', '4.17', '_vN matches the number of vector elements', 'ld_v2_u32 ($s1, $s2, $s3), [$d1];')
case('flat_segment_suffix', '4.18', 'flat addresses have no segment modifier (no _flat)', 'ld_flat_u32 $s1, [$d1];')
case('sig32_large_model', '2.9', 'the large model has no sig32', 'ld_global_sig32 $d1, [$d2];')
case('sig64_small_variable', '4.13.3', 'the small model has no sig64 variables', '', hdr='fs', pre='global_sig64 &x;', kernel=False)
case('br_width', '8.1', 'br has no width modifier', 'br_width(1) @l;\n@l:')
case('alloca_equiv', '10.10', 'alloca has no equivalence class', 'alloca_equiv(1)_u32 $s1, 4;')
case('signal_op_type', '6.8', 'signal ld/st/and/or/xor/exch/cas take bit types', 'signal_ld_rlx_u64_sig64 $d0, $d1;')
case('signal_wait_type', '6.8', 'signal waits take signed types', 'signal_wait_eq_rlx_u64_sig64 $d0, $d1, 0;')
case('initializer_array_type', '4.10', 'an array is initialized with an array constant of its type (Table 4-1)', '', pre='global_s32 &x[2] = u32[](1, 2);', kernel=False)
case('initializer_array_for_scalar', '4.10', 'a non-array variable takes a non-array constant (Table 4-1)', '', pre='global_u32 &x = u32[](1);', kernel=False)
case('initializer_aggregate_non_bit', '4.10', 'aggregate constants initialize bit-type arrays only (Table 4-1)', '', pre='global_u32 &x[2] = {u32[](1), u32[](2)};', kernel=False)
case('pragma_register_module', '13.3', 'a module-scope pragma cannot name a register (not in scope)', '', pre='pragma "x", $s1;', kernel=False)
case('const_without_initializer', '4.3.10', 'a const global or readonly definition has an initializer', '', pre='const global_u32 &x;', kernel=False)

EXTRA = {
 'register_size': ['// variant: add_u64 $d1, $s2, $d3; => add_u32 $s1, $s2, $s3;', '// patch: InstBasic 0 6:2 4'],
 'rounding_on_integer': ['// variant: add_up_u32 => add_up_f32', '// patch: InstMod 0 6:2 3'],
 'operand_count': ['// variant: add_u32 $s1, $s2, $s3, $s4; => mad_u32 $s1, $s2, $s3, $s4;', '// patch: InstBasic 0 4:2 2'],
 'immediate_destination': ['// variant: add_u32 1, $s2, $s3; => debugtrap_u32 1;', '// patch: InstBasic 0 4:2 132'],
 'duplicate_label': ['// variant: @a:\\n@a: => @a:\\n@b:', '// patch: DirectiveLabel 1 4:4 @DirectiveLabel:0'],
 'call_outside_arg_block': ['// variant: call &f () (); => {\\n\\t\\tcall &f () ();\\n\\t}', '// patch: DirectiveArgBlockStart 0 2:2 0', '// patch: DirectiveArgBlockEnd 0 2:2 0'],
 'arg_block_nested': ['// variant: {\\n\\t\\t{\\n\\t\\t\\tcall &f () ();\\n\\t\\t}\\n\\t} => {\\n\\t\\tcall &f () ();\\n\\t}\\n\\t{\\n\\t\\tcall &f () ();\\n\\t}', '// patch: DirectiveArgBlockEnd 0 2:2 0x1001'],
 'arg_variable_outside_block': ['// variant: arg_u32 %x; => {\\n\\t\\targ_u32 %x;\\n\\t\\tcall &f () (%x);\\n\\t}', '// patch: DirectiveArgBlockStart 0 2:2 0', '// patch: DirectiveArgBlockEnd 0 2:2 0'],
 'image_missing_height': ['// variant: width = 4, channel_type => width = 4, height = 4, channel_type', '// patch: OperandConstantImage 0 20:8 0'],
 'sampler_repeat_unnormalized': ['// variant: addressing = repeat => addressing = clamp_to_edge', '// patch: OperandConstantSampler 0 8 3'],
 'use_before_declaration': ['// variant: kernel &k() => global_u32 &g0;\\nkernel &k()', '// variant: [&g] => [&g0]', '// patch: OperandAddress 0 4:4 #DirectiveVariable:1'],
 'image_without_extension': ['// variant: imagefence; => imagefence;\\n\\tnop;', '// variant: module &m:1:0:$full:$large:$default; => module &m:1:0:$full:$large:$default;\\nextension "IMAGE";', '// patch: DirectiveExtension 0 2:2 0'],
}

# More cases live in cases_*.py beside this script (one file per audit of a
# PRM chapter range); each calls case(...) and may add EXTRA entries.
import glob
for _f in sorted(glob.glob(os.path.join(OUT, 'cases_*.py'))):
    exec(open(_f).read())

def build(c):
    name, prm, rule, body, hdr, pre, kernel, note = c
    lines = []
    if note == 'IMAGE':
        ext = 'extension "IMAGE";\n'
    else:
        ext = ''
    src = HDR[hdr] + '\n' + ext
    if pre:
        src += pre + '\n'
    if name == 'icall_base':
        src += 'signature &s()();\nfunction &f()() { ret; };\nkernel &k()\n{\n\tldi_u64 $d0, &f;\n}\n'
        src = HDR[hdr] + '\nsignature &s()();\nfunction &f()() { ret; };\nkernel &k()\n{\n\t{\n\t\ticall_u64 $d0 () () &s;\n\t}\n};\n'
    elif kernel:
        src += 'kernel &k()\n{\n\t' + body + '\n};\n'
    return src, prm, rule

def check(path):
    r = subprocess.run(['HSAILasm', path, '-o', os.path.join(tmpdir, 'x.brig')], capture_output=True, text=True)
    return r.returncode == 0, (r.stdout + r.stderr).strip()

only = sys.argv[1:]
for c in cases:
    if only and c[0] not in only: continue
    src, prm, rule = build(c)
    tmp = os.path.join(tmpdir, 't.hsail')
    open(tmp, 'w').write(src)
    ok, msg = check(tmp)
    line2 = '// hsailasm: accepts (PRM stricter: PRM %s)' % prm if ok else '// hsailasm: rejects'
    extra = ''.join(l + '\n' for l in EXTRA.get(c[0], []))
    text = '// reject: PRM %s: %s\n%s\n%s%s' % (prm, rule, line2, extra, src)
    open(os.path.join(OUT, c[0] + '.hsail'), 'w').write(text)
    print('%-28s %-8s %s' % (c[0], 'ACCEPTS' if ok else 'rejects', msg.splitlines()[0] if msg else ''))

README_HEAD = "# Negative corpus for the validator\n\nOne file per rule the validator checks (issue #3). Each file starts with\n\n```\n// reject: PRM <section>: <short rule>\n// hsailasm: rejects                     (or: accepts (PRM stricter: PRM <section>))\n```\n\n`crates/hsail/tests/validate_corpus.rs` (`invalid_corpus_is_rejected`)\nchecks that HSAILasm's verdict still matches the second line and that\n`hsail::validate` reports an error citing the section (or a subsection), on:\n\n- HSAILasm's BRIG when HSAILasm accepts the file (the PRM is stricter);\n- otherwise BRIG built from an accepted variant: `// variant: FROM => TO`\n  lines edit the text, `// patch: KIND N FIELD[:WIDTH] VALUE` lines then\n  set a field of the N-th entry of that kind in HSAILasm's BRIG;\n- otherwise `hsail::lower::assemble_unchecked` (our assembler without its\n  own instruction checks); files none of these can produce are reported as\n  pending.\n\n`gen_invalid.py` writes every file (the rule text is in the script; the\nHSAILasm verdict is measured). Run `python3 tests/corpus-invalid/gen_invalid.py`.\n\n"

def write_readme():
    rows = []
    for f in sorted(os.listdir(OUT)):
        if not f.endswith('.hsail'):
            continue
        lines = open(os.path.join(OUT, f)).read().splitlines()
        rest = lines[0][len('// reject: '):]
        sec, rule = rest.split(': ', 1)
        verdict = lines[1][len('// hsailasm: '):]
        rows.append('| `%s` | %s | %s | %s |' % (f, sec[len('PRM '):], rule, verdict))
    with open(os.path.join(OUT, 'README.md'), 'w') as out:
        out.write(README_HEAD + '| file | PRM | rule | HSAILasm |\n|---|---|---|---|\n' + '\n'.join(rows) + '\n')

write_readme()
