// llvm-objdump -d: families gfx90a and gfx942 dropped (MIMG, EXP, VINTRP).
// objdump-targets: gfx900 gfx906
.text
.globl kern
.type kern,@function
kern:
  image_load v[0:3], v[4:7], s[8:15] dmask:0xf unorm
  image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf
  image_store v[0:1], v[2:3], s[4:11] dmask:0x3 unorm glc
  exp pos0 v1, v2, v3, v4 done
  exp mrt0 v1, v1, v2, v2 compr vm
  v_interp_p1_f32 v1, v2, attr0.x
  v_interp_p2_f32 v1, v2, attr3.w
  v_interp_mov_f32 v1, p10, attr1.y
  v_madmk_f32 v1, v2, 0x42280000, v3
  s_endpgm
