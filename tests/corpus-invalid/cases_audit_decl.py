# Negative cases from the audit of PRM ch. 2.9-2.10, 4, 13, 14, App. A
# (declarations, initializers, constants, directives): exec'd by
# gen_invalid.py, see its docstring for case(...) and EXTRA.
IMG = 'roimg(geometry = 1d, width = 4, channel_type = unorm_int8, channel_order = rgba)'
SAMP = 'samp(coord = normalized, filter = nearest, addressing = clamp_to_edge)'
# HSAILasm rejects these in a $base module; the BRIG comes from the $full
# text with the profile patched to base.
TO_BASE = ['// variant: $base:$large => $full:$large', '// patch: DirectiveModule 0 16:1 0']
# HSAILasm rejects these without extension IMAGE; the BRIG comes from the
# text with it, the extension directive then blanked out.
NO_IMAGE = ['// variant: $large:$default; => $large:$default;\\nextension "IMAGE";', '// patch: DirectiveExtension 0 2:2 0']
# ---- 4.10 initializers: exactly the variable's byte size
case('initializer_too_few', '4.10', 'the initializer has the byte size of the array (no zero fill)', '', pre='global_u32 &a[8] = u32[](1, 2, 3);', kernel=False)
case('initializer_aggregate_size', '4.10', 'an aggregate initializer has the byte size of the array', '', pre='global_b8 &a[8] = {u8(1), u16(2)};', kernel=False)
case('initializer_not_whole_elements', '4.10', 'without a dimension the initializer is a whole number of elements', '', pre='global_b32 &a[] = {u8(1), u16(2)};', kernel=False)
case('initializer_image_array_size', '4.10', 'an image array initializer has one image per element', '', pre='alloc(agent) global_roimg &ord[3] = roimg[](%s);' % IMG, kernel=False, note='IMAGE')
case('initializer_signal_integer', '4.8.5', 'a signal is initialized with a signal typed constant, not an integer (Table 4-1)', '', pre='global_sig64 &s = 0;', kernel=False)
case('initializer_image_program_alloc', '4.3.10', 'image and sampler initializers need agent allocation', '', pre='global_samp &s = %s;' % SAMP, kernel=False, note='IMAGE')
# ---- 4.8 constants
case('bit_typed_constant', '4.8.3', 'there are no bit typed constants', '', pre='global_b32 &a = b32(1);', kernel=False)
case('array_constant_nested', '4.8.3', 'an array constant element is not an array', '', pre='global_u32 &a[1] = u32[](u32[](1));', kernel=False)
case('aggregate_only_align', '4.8.4', 'an aggregate constant is not only alignment requests', '', pre='global_b8 &a[] = {align(4)};', kernel=False)
case('base_f64_pragma', '16.2.1', 'the base profile has no double-precision constants (pragma operand)', '', hdr='bl', pre='pragma 0, 1.5, 0D3ff8000000000000;', kernel=False)
case('base_f64_aggregate', '16.2.1', 'the base profile has no f64 typed constants (aggregate element)', '', hdr='bl', pre='global_b8 &x[] = {f64(1.5)};', kernel=False)
# ---- 4.3 declarations and definitions
case('indirect_not_function', '4.3.3', 'indirect qualifies only a function', '', pre='indirect and &ind_a(arg_u32 %r)(arg_f32 %a) { ret; };', kernel=False)
case('decl_signature', '4.3.10', 'decl is not allowed on a signature', '', pre='decl signature &s()();', kernel=False)
case('arg_block_global_variable', '4.3.6', 'an arg block defines only arg variables', '{\n\t\tglobal_u32 %x;\n\t\tcall &f () ();\n\t}', pre='function &f()() { ret; };')
case('kernel_flexible_array', '4.3.8', 'a kernel argument array has a dimension', '', pre='kernel &k2(kernarg_u32 %a[]) { ret; };', kernel=False)
case('arg_block_array_no_dim', '4.3.8', 'an arg block array variable has a dimension', '{\n\t\targ_u32 %x[];\n\t\tcall &f () (%x);\n\t}', pre='function &f()(arg_u32 %a[]) { ret; };')
case('argument_align_below_natural', '4.3.10', 'an argument align(n) is at least the natural alignment', '', pre='function &f()(align(2) arg_u32 %x) { ret; };', kernel=False)
case('argument_const', '4.3.10', 'arguments cannot be const', '', pre='function &f()(const arg_u32 %x) { ret; };', kernel=False)
case('decl_def_align_mismatch', '4.3.10', 'a declaration and its definition have the same qualifiers', '', pre='decl align(8) global_u32 &x;\nglobal_u32 &x;', kernel=False)
case('function_decl_argument_align', '10.3', 'a function declaration and definition have the same formal arguments', '', pre='decl function &f()(align(8) arg_u32 %r);\nfunction &f()(arg_u32 %r) { ret; };', kernel=False)
case('reserved_identifier', '4.6.1', 'identifiers do not start with __hsa', '', pre='global_u32 &__hsa_x;', kernel=False)
# ---- 13 directives
case('pragma_image_without_extension', '13.1.2', 'image constants need extension IMAGE (pragma operand)', '', pre='pragma roimg(geometry = 1d, width = 4, channel_type = unorm_int8, channel_order = srgb);', kernel=False)
case('core_with_empty_extension', '13.1.1', 'CORE allows only other CORE extension directives', '', pre='extension "CORE";\nextension "";', kernel=False)
case('loc_line_zero', '13.2', 'a loc line number is at least 1', '', pre='loc 0 "x";', kernel=False)
case('control_repeated_value', '13.4', 'a repeated control directive has the same values', 'maxflatworkgroupsize 64;\n\tmaxflatworkgroupsize 128;\n\tret;')
case('control_requireddim_sizes', '13.4', 'with requireddim n, the sizes of the other dimensions are 1', 'requireddim 1;\n\trequiredworkgroupsize 64, 2, 1;\n\tret;')
case('control_maxflat_product', '13.4', 'maxflatworkgroupsize is at least the product of requiredworkgroupsize', 'requiredworkgroupsize 64, 2, 1;\n\tmaxflatworkgroupsize 64;\n\tret;')
EXTRA.update({
 'base_f64_pragma': TO_BASE,
 'base_f64_aggregate': TO_BASE,
 'pragma_image_without_extension': NO_IMAGE,
})
case('base_f64_argument', '16.2.1', 'the base profile has no f64 formal arguments', '', hdr='bl', pre='function &f()(arg_f64 %a) { ret; };', kernel=False)
case('small_sig64_argument', '4.13.3', 'the small model has no sig64 formal arguments', '', hdr='fs', pre='function &f()(arg_sig64 %a) { ret; };', kernel=False)
# ---- 10.8 indirect functions add no group/private memory or fbarriers
case('indirect_defines_group', '10.8', 'an indirect function defines no group variable', '', pre='indirect function &g()() {\n\tgroup_u32 %x;\n\tret;\n};', kernel=False)
case('indirect_callee_module_private', '10.8', 'functions an indirect function calls reference no module-scope private variable', '', pre='private_u32 &pv;\nfunction &h()() {\n\tld_private_u32 $s0, [&pv];\n\tret;\n};\nindirect function &g()() {\n\t{\n\t\tcall &h()();\n\t}\n\tret;\n};', kernel=False)
case('indirect_fbarrier', '10.8', 'an indirect function references no module-scope fbarrier', '', pre='fbarrier &fb;\nindirect function &g()() {\n\twaitfbar &fb;\n\tret;\n};', kernel=False)
case('image_property_twice', '7.1.7', 'an image constant sets each property once', '', pre='alloc(agent) global_roimg &a = roimg(geometry = 1d, width = 4, width = 8, channel_type = unorm_int8, channel_order = rgba);', kernel=False, note='IMAGE')
case('image_private_variable', '7.1.7', 'image handle variables are global, readonly, arg or kernarg', 'private_roimg %x;\n\tret;', note='IMAGE')
case('icall_handle_size', '10.8', 'icall takes a code handle of the machine model size (32-bit small)', '{\n\t\ticall_u64 $d0 () () &s;\n\t}\n\tret;', hdr='fs', pre='signature &s()();')
