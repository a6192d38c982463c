# Negative cases from the audit of PRM ch. 6-12 (memory, images, branches,
# synchronization, functions, special instructions, exceptions); exec'd by
# gen_invalid.py. One case per rule, named for the rule.
_IMG2D = 'roimg(geometry = 2d, width = 4, height = 4, channel_type = %s, channel_order = %s)'
# ---- ch. 6: memory
case('atomicnoret_cas', '6.7', 'atomicnoret has no cas (6.6.2)', 'atomicnoret_cas_global_rlx_system_b32 [$d0], 1, 2;')
# ---- ch. 7: images
case('image_geometry_missing', '7.1.3', 'image instructions name a geometry', 'rdimage_v4_s32_roimg_f32 ($s0, $s1, $s2, $s3), $d0, $d1, $s4;', note='IMAGE')
case('image_channel_combination', '7.1.5', 'only the channel order/type combinations of Table 7-4', 'nop;', pre='alloc(agent) global_roimg &img = ' + _IMG2D % ('float', 'srgba') + ';', note='IMAGE')
case('rdimage_dest_type', '7.2', 'rdimage returns u32, s32 or f32', 'rdimage_v4_2d_f16_roimg_f32 ($s0, $s1, $s2, $s3), $d0, $d1, ($s4, $s5);', note='IMAGE')
# ---- ch. 8-9: branches, barriers, cross-lane
case('sbr_comma', '8.1', 'the sbr label list follows the source without a comma (ch. 19)', 'sbr_u32 $s1, [@a, @b];\n@a:\n@b:\n\tret;')
case('wavebarrier_width', '9.1', 'wavebarrier has no width modifier', 'wavebarrier_width(64);')
case('ldf_register', '9.2', 'ldf names an fbarrier, not a register', 'ldf_u32 $s1, $s2;', pre='fbarrier &fb;')
case('activelanemask_v4', '9.4', 'activelanemask writes a vector of four registers (_v4)', 'activelanemask_b64_b1 $d0, $c0;')
# ---- ch. 10-11: functions, special instructions
case('icall_type_model', '10.8', 'the icall type matches the machine model (Table 2-3)', '{\n\t\ticall_u32 $s0 () () &s;\n\t}', pre='signature &s()();')
case('icall_immediate', '4.16', 'the icall source is a register (10.8.1)', '{\n\t\ticall_u64 0 () () &s;\n\t}', pre='signature &s()();')
case('kernargbaseptr_type_model', '11.4', 'kernargbaseptr takes the kernarg address size of the model', 'kernargbaseptr_u32 $s0;')
