# Negative cases from the sentence sweep of the PRM (docs/validator-audit/
# sentence-sweep.md): every restriction sentence of ch. 2, 4-14, 16, 18 and
# App. A, probed; one case per rule found accepted. exec'd by gen_invalid.py.
_CALL_F = '{\n\t\tcall &f () ();\n\t}'
# ---- ch. 13: control directives across a kernel and the functions it calls
case('control_callee_value', '13.4', 'a kernel and the functions it calls give a control directive the same values',
     'maxdynamicgroupsize 10;\n\t' + _CALL_F, pre='function &f()() { maxdynamicgroupsize 20; ret; };')
case('control_callee_requireddim', '13.4', 'requireddim agrees with the required sizes given by the functions the kernel calls',
     'requireddim 1;\n\t' + _CALL_F, pre='function &f()() { requiredworkgroupsize 16, 16, 1; ret; };')
# ---- ch. 7: image and sampler handles in arg variables
case('image_handle_output_actual', '7.1.9', 'image and sampler handles are stored only to input actual arguments or the output formal argument',
     '{\n\t\targ_roimg %a;\n\t\tcall &f (%a) ();\n\t\tst_arg_roimg $d0, [%a];\n\t}',
     pre='function &f(arg_roimg %r)() { st_arg_roimg $d0, [%r]; ret; };', note='IMAGE')
# ---- ch. 4: lexical rules (text only: BRIG has no trace of them)
case('whitespace_between_tokens', '4.4', 'white space separates tokens that can include letters or digits', 'add_u32$s1, $s2, $s3;')
# ---- ch. 10: the call of an arg block runs exactly once
case('arg_block_conditional_call', '10.2', 'no branch inside an arg block skips or repeats its call',
     '{\n\t\tcbr_b1 $c0, @l;\n\t\tcall &f () ();\n@l:\n\t\tnop;\n\t}', pre='function &f()() { ret; };')
