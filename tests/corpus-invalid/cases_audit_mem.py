# Negative cases from the audit of PRM ch. 6-12 (memory, images, branches,
# synchronization, functions, special instructions, exceptions); exec'd by
# gen_invalid.py. One case per rule, named for the rule.
_IMG2D = 'roimg(geometry = 2d, width = 4, height = 4, channel_type = %s, channel_order = %s)'
# ---- ch. 6: memory
case('atomicnoret_cas', '6.7', 'atomicnoret has no cas (6.6.2)', 'atomicnoret_cas_global_rlx_system_b32 [$d0], 1, 2;')
# ---- ch. 7: images
case('image_geometry_missing', '7.1.3', 'image instructions name a geometry', 'rdimage_v4_s32_roimg_f32 ($s0, $s1, $s2, $s3), $d0, $d1, $s4;', note='IMAGE')
case('image_variable_group', '7.1.7', 'image handle variables are global, readonly, kernarg or arg', 'group_roimg %img;', note='IMAGE')
case('sampler_variable_private', '7.1.8', 'sampler handle variables are global, readonly, kernarg or arg', '', pre='private_samp &s;', kernel=False, note='IMAGE')
case('image_property_twice', '7.1.7', 'an image property is given once', 'nop;', pre='alloc(agent) global_roimg &img = roimg(geometry = 1d, width = 4, width = 4, channel_type = unorm_int8, channel_order = rgba);', note='IMAGE')
case('image_channel_combination', '7.1.5', 'only the channel order/type combinations of Table 7-4', 'nop;', pre='alloc(agent) global_roimg &img = ' + _IMG2D % ('float', 'srgba') + ';', note='IMAGE')
case('rdimage_dest_type', '7.2', 'rdimage returns u32, s32 or f32', 'rdimage_v4_2d_f16_roimg_f32 ($s0, $s1, $s2, $s3), $d0, $d1, ($s4, $s5);', note='IMAGE')
