# Negative cases from the audit of PRM ch. 5 (arithmetic), 4.14-4.19
# (modifiers, operands) and 16.2.1 (base profile) as they apply to ch. 5,
# plus nullptr (11.4). exec'd by gen_invalid.py (see `case` there).
case('nullptr_global', '11.4', 'nullptr takes flat, group, private or kernarg (global shares the flat null)', 'nullptr_global_u64 $d1;')
case('nullptr_global_small', '11.4', 'nullptr takes flat, group, private or kernarg', 'nullptr_global_u32 $s24;', hdr='fs')
case('nullptr_readonly', '11.4', 'nullptr takes flat, group, private or kernarg', 'nullptr_readonly_u64 $d1;')
case('nullptr_arg', '11.4', 'the arg segment has no null pointer value', 'nullptr_arg_u32 $s1;')
case('nullptr_spill', '11.4', 'the spill segment has no null pointer value', 'nullptr_spill_u32 $s1;')
case('combine_vector_count', '5.8', 'combine_v2 b128 from b32 needs four elements', 'combine_v2_b128_b32 $q0, ($s0, $s1);')
case('combine_too_many', '5.8', 'combine b64 from b32 takes two elements', 'combine_v4_b64_b32 $d0, ($s0, $s1, $s2, $s3);')
case('combine_same_size', '5.8', 'combine sources are narrower than the destination', 'combine_v2_b64_b64 $d0, ($d0, $d1);')
case('expand_vector_count', '5.8', 'expand b64 into b32 takes two destinations', 'expand_v4_b32_b64 ($s0, $s1, $s2, $s3), $d0;')
case('expand_too_few', '5.8', 'expand b128 into b32 takes four destinations', 'expand_v2_b32_b128 ($s0, $s1), $q0;')
case('fma_packed', '5.11', 'fma has no packed form', 'fma_pp_f32x2 $d1, $d2, $d3, $d4;')
