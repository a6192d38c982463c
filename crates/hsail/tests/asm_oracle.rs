//! Differential tests of `hsail::assemble` against HSAILasm, the reference
//! assembler: every `tests/corpus/**/*.hsail` file, a set of inline
//! snippets, random modules from `hsail-smith` and (ignored by default)
//! line-level mutants of the corpus must assemble to byte-identical BRIG.
//! On a mismatch the test prints the first differing offset (with its
//! section) and the first differing line of `HSAILasm -decode` of both
//! modules, and keeps both in a scratch directory.
//!
//! HSAILasm missing: the tests say so on stderr and pass, unless `CI` is
//! set (then they fail). `ASM_ORACLE_FILTER=substring` limits the corpus;
//! `ASM_ORACLE_EXTRA_DIRS=dir:dir` adds more directories of `.hsail` files.

use std::path::PathBuf;

use oracles::{Rng, Scratch, brig_difference, hsailasm_assemble, hsailasm_available};

/// Compare our BRIG with HSAILasm's; `Err` describes the first difference
/// (with both modules kept in a scratch directory). `Ok(false)` means
/// HSAILasm rejected the input (not comparable).
fn compare(name: &str, src: &str) -> Result<bool, String> {
    let Ok(theirs) = hsailasm_assemble(src) else {
        return Ok(false);
    };
    let ours = match hsail::assemble(src, name) {
        Ok(b) => b,
        Err(d) => return Err(format!("{name}: HSAILasm accepts it but we report:\n{d}")),
    };
    let Some(difference) = brig_difference(&theirs, &ours) else {
        return Ok(true);
    };
    let scratch = Scratch::new("asm-oracle");
    for (file, bytes) in [
        ("in.hsail", src.as_bytes()),
        ("ref.brig", &theirs),
        ("ours.brig", &ours),
    ] {
        std::fs::write(scratch.path(file), bytes).expect("cannot write a scratch file");
    }
    Err(format!(
        "{name}: expected HSAILasm's BRIG, actual ours: {difference} (files kept in {})",
        scratch.keep().display()
    ))
}

/// A count from the environment variable `var`, else `default`.
fn env_count(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Prints the first `shown` failures and fails if there are any.
fn assert_none_differ(failures: &[String], shown: usize, what: &str) {
    for f in failures.iter().take(shown) {
        eprintln!("{f}\n");
    }
    assert!(
        failures.is_empty(),
        "{} {what} differ from HSAILasm",
        failures.len()
    );
}

/// The corpus and the `.hsail` files of `ASM_ORACLE_EXTRA_DIRS` (`:`-separated
/// directories, for development).
fn corpus_files() -> Vec<PathBuf> {
    let mut out = oracles::corpus_files();
    if let Ok(extra) = std::env::var("ASM_ORACLE_EXTRA_DIRS") {
        for dir in extra.split(':').filter(|s| !s.is_empty()) {
            out.extend(oracles::files_with_extension(dir.as_ref(), "hsail"));
        }
    }
    out
}

#[test]
fn corpus_matches_hsailasm() {
    if !hsailasm_available() {
        return;
    }
    let filter = std::env::var("ASM_ORACLE_FILTER").unwrap_or_default();
    let files = corpus_files();
    let mut pass = 0;
    let mut failures = Vec::new();
    let mut rejected = Vec::new();
    for f in &files {
        let name = f.display().to_string();
        if !name.contains(&filter) {
            continue;
        }
        let src = std::fs::read_to_string(f).unwrap();
        match compare(&name, &src) {
            Ok(true) => pass += 1,
            Ok(false) => rejected.push(name),
            Err(e) => failures.push(e),
        }
    }
    eprintln!(
        "corpus: {pass} identical, {} different, {} rejected by HSAILasm, of {} files",
        failures.len(),
        rejected.len(),
        files.len()
    );
    for r in &rejected {
        eprintln!("  rejected by HSAILasm: {r}");
    }
    assert_none_differ(&failures, usize::MAX, "corpus files");
}

/// Inline snippets: (name, source) pairs, each a whole module.
const SNIPPETS: &[(&str, &str)] = &[
    (
        "prm_vector_add",
        "module &VectorAdd:1:0:$full:$small:$default;

kernel &_OpenCL_vec_add_kernel(
    kernarg_u32 %arg_val0,
    kernarg_u32 %arg_val1,
    kernarg_u32 %arg_val2,
    kernarg_u32 %arg_val3)
{
    @_OpenCL_vec_add_kernel_entry:
    // BB#0:                                     // %entry
    ld_kernarg_u32    $s0, [%arg_val3];
    workitemabsid_u32 $s1, 0;
    cmp_lt_b1_u32     $c0, $s1, $s0;
    ld_kernarg_u32     $s0, [%arg_val2];
    ld_kernarg_u32     $s2, [%arg_val1];
    ld_kernarg_u32     $s3, [%arg_val0];
    cbr_b1            $c0, @BB0_2;
    br                @BB0_1;
@BB0_1:
    ret;                                     // %if.end
@BB0_2:
    shl_u32           $s1, $s1, 2;          // %if.then
    add_u32            $s2, $s2, $s1;
    ld_global_f32      $s2, [$s2];
    add_u32            $s3, $s3, $s1;
    ld_global_f32      $s3, [$s3];
    add_f32            $s2, $s3, $s2;
    add_u32            $s0, $s0, $s1;
    st_global_f32    $s2, [$s0];
    br               @BB0_1;
};
",
    ),
    (
        "comments_and_calls",
        "module &m:1:0:$full:$large:$default;
/* multi
line */
/**/
/*x*/
/*
  a

  b
*/
decl prog function &f(arg_u32 %r)(arg_u32 %a);
global_u32 &g = 5;
prog kernel &k(kernarg_u64 %p)
{
  // c1
  add_u32 $s1, $s1, 2; // c2
  add_u32 $s2, $s1, 5;
  add_u64 $d2, $d1, 2;
  add_ftz_f32 $s1, $s1, 1.5f;
  add_f64 $d1, $d1, 1.5;
  ld_global_u32 $s1, [&g];
  ld_global_u32 $s1, [&g][$d1+4];
  st_u32 $s1, [$d1-4];
  {
    arg_u32 %r;
    arg_u32 %a;
    st_arg_u32 $s1, [%a];
    call &f (%r) (%a);
    ld_arg_u32 $s1, [%r];
  }
  ret;
};
prog function &f(arg_u32 %r)(arg_u32 %a) { st_arg_u32 0, [%r]; ret; };
",
    ),
    (
        "defaults",
        "module &m:1:0:$full:$large:$near;
kernel &k()
{
  add_ftz_f32 $s1, $s1, $s2;
  max_ftz_f32 $s1, $s1, $s2;
  add_pp_u8x4 $s1, $s1, $s2;
  cvt_f32_s32 $s1, $s2;
  cvt_s32_f32 $s1, $s2;
  cvt_ftz_s32_f32 $s1, $s2;
  cvt_f16_f32 $s1, $s2;
  cvt_f64_f32 $d1, $s2;
  cvt_u32_u64 $s1, $d2;
  barrier;
  wavebarrier;
  joinfbar $s1;
  activelanecount_u32_b1 $s1, $c1;
  ld_global_u32 $s1, [$d1-4];
  ld_group_u32 $s1, [$s1-4];
  ld_kernarg_u32 $s1, [$d1-4];
  lda_private_u32 $s1, [$s1-4];
  shl_u64 $d1, $d1, 3;
  mov_b32 $s1, 3;
  mov_b64 $d1, -3;
  mov_s32 $s1, -3;
  mov_b1 $c1, 7;
  mov_b32 $s1, u8x4(1, 2, 3, 4);
  mov_b32 $s1, 0F3f800000;
  mov_f32 $s1, -1.0f;
  atomic_add_global_scar_agent_u32 $s1, [$d1], 1;
  memfence_scacq_agent;
  ret;
};
",
    ),
    (
        "signature_control_loc_pragma",
        "module &m:1:0:$full:$small:$default;
extension \"IMAGE\";
signature &s(arg_u32)(arg_u32, arg_f32);
prog function &f()() { ret; };
kernel &k()
{
  requireddim 2;
  requiredgridsize 2, 3, 4;
  maxflatgridsize 5;
  loc 10;
  loc 11 2 \"a.c\";
  loc 12;
  pragma \"abc\", 5, $s1;
  barrier;
  ret;
};
",
    ),
    (
        "vars",
        r##"module &m:1:0:$full:$large:$default;
extension "IMAGE";
prog global_u32 &a[4] = u32[](1, 2, 3, 4);
global_u32 &b[] = u32[](1, 2, 3);
readonly_f32 &c = 1.5f;
alloc(agent) global_b32 &d = 7;
align(16) const global_b64 &e = 0D3ff0000000000000;
global_f16 &h = 1.5h;
global_f64 &f = -0x1.8p1;
global_f32 &f2 = 0x1.8p1f;
global_u8x4 &p = u8x4(1, 2, 3, 255);
global_b32 &q = f32(1.0f);
global_b8 &arr[] = {u8(1), align(4), u32(7), u16x2(1,2)};
alloc(agent) global_rwimg &img = rwimg(geometry = 2d, width = 4, height = 5, channel_type = unorm_int8, channel_order = rgba);
alloc(agent) global_roimg &imgs[2] = roimg[](roimg(geometry = 1d, width = 4, channel_type = float, channel_order = r), roimg(geometry = 3d, width = 4, height = 2, depth = 3, channel_type = signed_int32, channel_order = rgbx));
alloc(agent) global_samp &s = samp(coord = normalized, filter = linear, addressing = clamp_to_edge);
decl prog global_u32 &ext;
group_u32 &grp;
private_u32 &prv;
fbarrier &fb;
indirect function &ind(arg_u32 %r)() { st_arg_u32 1, [%r]; ret; };
kernel &k(kernarg_u64 %x)
{
	private_u32 %loc;
	group_u32 %g[8];
	spill_u32 %sp;
	fbarrier %lfb;
	ld_global_u32 $s1, [&ext];
	ld_private_u32 $s1, [%loc];
	ld_group_u32 $s2, [%g][$s1+4];
	lda_global_u64 $d1, [&a][8];
	initfbar %lfb;
	joinfbar_width(64) %lfb;
	ldf_u32 $s3, %lfb;
	releasefbar &fb;
	ret;
};
prog global_u32 &ext = 3;
"##,
    ),
    (
        "insts",
        r##"module &m:1:0:$full:$small:$default;
extension "IMAGE";
signature &sig(arg_u32 %o)(arg_u32 %i);
function &f1(arg_u32 %o)(arg_u32 %i) { ret; };
function &f2(arg_u32 %o)(arg_u32 %i) { ret; };
kernel &k(kernarg_u32 %x)
{
	mov_b128 $q1, $q2;
	mov_b64 $d1, 0x123456789abcdef0;
	mov_f64 $d1, 1.0e10;
	mov_f16 $s1, 0H3c00;
	mov_f32 $s1, -0.0f;
	mov_b32 $s1, u8x4(1,2,3,4);
	add_pp_sat_u8x4 $s1, $s2, $s3;
	cvt_neari_sat_s32_f32 $s1, $s2;
	cvt_upi_s32_f32 $s1, $s2;
	cvt_zero_f32_f64 $s1, $d2;
	sqrt_near_f32 $s1, $s2;
	cmp_sgtu_ftz_b1_f32 $c1, $s1, 1.0f;
	cmp_eq_pp_u8x4_u8x4 $s1, $s2, $s3;
	ld_v2_global_align(8)_const_equiv(3)_width(WAVESIZE)_f32 ($s1, $s2), [$s3+8];
	ld_v4_u32 ($s1, $s2, $s3, $s4), [$s5];
	st_v2_f32 ($s1, 1.0f), [$s3];
	atomic_cas_global_scar_system_b32 $s1, [$s2], $s3, 4;
	atomic_ld_global_scacq_wave_b32 $s1, [$s2];
	atomicnoret_st_global_screl_wg_equiv(2)_b32 [$s2], 5;
	atomicnoret_max_group_rlx_wg_s32 [$s2], -1;
	signal_wait_eq_scacq_s32_sig32 $s1, $d1, 0;
	memfence_screl_system;
	imagefence;
	segmentp_global_nonull_b1_u32 $c1, $s1;
	ftos_group_u32_u32 $s1, $s2;
	stof_private_nonull_u32_u32 $s1, $s2;
	nullptr_private_u32 $s1;
	nullptr_u32 $s1;
	kernargbaseptr_u32 $s1;
	groupbaseptr_u32 $s1;
	laneid_u32 $s1;
	maxcuid_u32 $s1;
	maxwaveid_u32 $s1;
	waveid_u32 $s1;
	addqueuewriteindex_global_scar_u64 $d1, [$s1], 1;
	casqueuewriteindex_scar_u64 $d1, [$s1], $d2, $d3;
	ldqueuereadindex_scacq_u64 $d1, [$s2];
	stqueuewriteindex_global_screl_u64 [$s2], $d1;
	activelanemask_v4_b64_b1 ($d0, $d1, $d2, $d3), $c1;
	activelanepermute_width(all)_b32 $s1, $s2, $s3, $s4, $c1;
	activelaneid_u32 $s1;
	combine_v2_b64_b32 $d1, ($s1, $s2);
	expand_v4_b32_b128 ($s1, $s2, $s3, $s4), $q1;
	pack_f32x2_f32 $d1, $d1, $s2, 1;
	unpack_s32_s8x4 $s1, $s2, 3;
	cmov_b32 $s1, $c1, $s2, 4;
	cmov_s8x4 $s1, $s2, $s3, $s4;
	shuffle_u8x4 $s1, $s2, $s3, 0x1b;
	bitextract_u32 $s1, $s2, 3, 4;
	class_b1_f32 $c1, $s1, 3;
	rdimage_v4_2d_f32_roimg_f32 ($s0, $s1, $s2, $s3), $d1, $d2, ($s4, $s5);
	ldimage_v4_1d_u32_rwimg_u32 ($s0, $s1, $s2, $s3), $d1, $s4;
	stimage_v4_3d_f32_rwimg_u32 ($s0, $s1, $s2, $s3), $d1, ($s4, $s5, $s6);
	queryimage_2d_width_u32_roimg $s1, $d1;
	querysampler_filter_u32 $s1, $d1;
	alloca_align(8)_u32 $s1, 16;
	clock_u64 $d1;
	cuid_u32 $s1;
	debugtrap_u32 0;
	setdetectexcept_u32 1;
	sbr_u32 $s1 [@l1, @l2];
	
@l1:
	{
		arg_u32 %o;
		arg_u32 %i;
		call &f1 (%o) (%i);
	}
	{
		arg_u32 %o;
		arg_u32 %i;
		icall_u32 $s1 (%o) (%i) &sig;
	}
	{
		arg_u32 %o;
		arg_u32 %i;
		scall_u32 $s1 (%o) (%i) [&f1, &f2];
	}
@l2:
	nop;
	ret;
};
"##,
    ),
    (
        "misc",
        r##"module &misc:1:0:$full:$large:$zero;
extension "IMAGE";
// top comment
signature &s2()(arg_u32, arg_u64 %named);
function &k3()() { ret; };
decl prog function &later(arg_u64 %r)(arg_u32 %a, arg_f32 %b);
global_u32 &a.b[4];
global_sig64 &sg;
global_u64 &fnp = 0;
pragma "x", 1, -2, 1.5, 2.5f, WAVESIZE, &a.b, {u32(1), u8x4(1,2,3,4)}, samp(coord = unnormalized, filter = nearest, addressing = clamp_to_border);
kernel &k2(kernarg_u64 %x, kernarg_u32 %y)
{
	maxflatworkgroupsize WAVESIZE;
	requiredworkgroupsize 64, 1, 1;
	enabledetectexceptions 0x1f;
	requirenopartialworkgroups;
	loc 1;
	loc 2 3 "f.cl";
	loc 4 "g.cl";
	pragma "in body", @lab, %x, $d3;
	mov_b32 $s1, WAVESIZE;
	mov_b64 $d1, u32x2(1, 2);
	mov_b32 $s1, f16x2(1.0h, -2.0h);
	mov_b32 $s1, s8x4(-1, -2, 3, 4);
	mov_b32 $s1, 0x1ffffffff;
	mov_b32 $s1, 010;
	mov_b32 $s1, -0x80000000;
	mov_b64 $d1, 0xffffffffffffffff;
	mov_s64 $d1, -1;
	mov_u64 $d1, 18446744073709551615;
	mov_f32 $s1, 0x1.0p-126f;
	mov_f32 $s1, 3.4028235e38f;
	mov_f64 $d1, 2.2250738585072014e-308;
	mov_f64 $d1, 0.1;
	mov_f32 $s1, 0.1f;
	mov_f16 $s1, 0.1h;
	mov_f16 $s1, 65504.0h;
	mov_b1 $c1, 0;
	ld_global_u32 $s1, [0];
	ld_global_u32 $s1, [-4];
	ld_global_u32 $s1, [$d1-0x10];
	ld_global_u32 $s1, [&a.b][8];
	ld_global_u32 $s1, [&a.b][$d2+0x8];
	ld_kernarg_u64 $d1, [%x];
	cbr_width(all)_b1 $c1, @lab;
	cbr_b1 1, @lab;
	barrier_width(64);
	add_up_f64 $d1, $d1, 1.0;
	mul_ftz_down_f32 $s1, $s1, 2.0f;
	fract_ftz_f32 $s1, $s1;
	neg_p_s8x4 $s1, $s1;
	abs_f64 $d1, $d1;
	sub_ps_sat_s16x2 $s1, $s2, $s3;
	max_pp_f16x2 $s1, $s2, $s3;
	min_f32 $s1, $s2, -1.0f;
	mad_ftz_f32 $s1, $s2, $s3, $s4;
	fma_near_f64 $d1, $d2, $d3, $d4;
	div_s32 $s1, $s2, -7;
	rem_u64 $d1, $d2, 3;
	mulhi_u32 $s1, $s2, $s3;
	mad24hi_s32 $s1, $s2, $s3, $s4;
	popcount_u32_b64 $s1, $d1;
	firstbit_u32_s32 $s1, $s2;
	bitrev_b32 $s1, $s2;
	bitselect_b64 $d1, $d2, $d3, $d4;
	bitinsert_s64 $d1, $d2, $d3, 1, 2;
	bitmask_b32 $s1, 3, 4;
	lerp_u8x4 $s1, $s2, $s3, $s4;
	sad_u32_u16x2 $s1, $s2, $s3, $s4;
	sadhi_u16x2_u8x4 $s1, $s2, $s3, $s4;
	packcvt_u8x4_f32 $s1, $s2, $s3, $s4, 1.0f;
	unpackcvt_f32_u8x4 $s1, $s2, 2;
	bytealign_b32 $s1, $s2, $s3, $s4;
	nsin_f32 $s1, $s2;
	nrcp_f64 $d1, $d2;
	nfma_f32 $s1, $s2, $s3, $s4;
	copysign_f32 $s1, $s2, $s3;
	ceil_ftz_f32 $s1, $s2;
	trunc_f64 $d1, $d2;
	cvt_s8_f64 $s1, $d1;
	cvt_b1_f32 $c1, $s1;
	cvt_f32_b1 $s1, $c1;
	cvt_u64_s32 $d1, $s1;
	cvt_f16_f64 $s1, $d1;
	cvt_f64_f16 $d1, $s1;
	cvt_sdowni_sat_u8_f32 $s1, $s2;
	cmp_ne_b1_b1 $c1, $c2, 0;
	cmp_ge_u32_u32 $s1, $s2, 7;
	cmp_lt_f32_f32 $s1, $s2, 1.0f;
	cmp_nan_b1_f64 $c1, $d1, $d2;
	cmp_sneu_ftz_pp_u16x2_f16x2 $s1, $s2, $s3;
	unpackhi_u8x4 $s1, $s2, $s3;
	workitemabsid_u64 $d1, 2;
	gridsize_u64 $d1, 1;
	workitemflatabsid_u64 $d1;
	currentworkitemflatid_u32 $s1;
	dim_u32 $s1;
	packetid_u64 $d1;
	getdetectexcept_u32 $s1;
	cleardetectexcept_u32 3;
	lda_kernarg_u64 $d1, [%x];
	lda_u64 $d1, [$d1+8];
	st_global_u8 $s1, [$d1];
	st_global_b128 $q1, [$d1];
	atomic_wrapinc_global_rlx_agent_u32 $s1, [$d1], 7;
	atomic_exch_scar_system_b64 $d1, [$d2], $d3;
	atomicnoret_add_global_rlx_wg_u64 [$d1], 1;
	signal_ld_scacq_b64_sig64 $d1, $d2;
	signal_cas_scar_b64_sig64 $d1, $d2, 1, 2;
	signal_waittimeout_lt_rlx_s64_sig64 $d1, $d2, 3, $d4;
	signalnoret_add_rlx_u64_sig64 $d2, 1;
	packetcompletionsig_sig64 $d1;
	waitfbar_width(WAVESIZE) $s1;
	leavefbar $s1;
	arrivefbar $s1;
	wavebarrier;
@lab:
	{
		arg_u32 %a;
		arg_f32 %b;
		arg_u64 %r;
		st_arg_u32 $s1, [%a];
		st_arg_f32 1.0f, [%b];
		call &later (%r) (%a, %b);
		ld_arg_u64 $d1, [%r];
	}
	{
		call &k3 () ();
	}
	ret;
};
prog function &later(arg_u64 %r)(arg_u32 %a, arg_f32 %b) { st_arg_u64 0, [%r]; ret; };
"##,
    ),
    (
        "decls",
        r##"module &m:1:0:$full:$large:$default;
decl kernel &k2(kernarg_u32 %x);
decl indirect function &ind(arg_u32 %r)(arg_u32 %a);
decl function &g()(arg_u32 %a);
decl prog global_u32 &pg[4];
decl readonly_u32 &ro;
decl prog fbarrier &fbd;
function &caller()()
{
	{
		arg_u32 %a;
		call &g () (%a);
	}
	ld_global_u32 $s1, [&pg][4];
	ld_readonly_u32 $s2, [&ro];
	lda_global_u64 $d1, [&pg];
	ret;
};
prog global_u32 &pg[4] = u32[](1,2,3,4);
readonly_u32 &ro = 5;
function &g()(arg_u32 %a) { ret; };
indirect function &ind(arg_u32 %r)(arg_u32 %a) { st_arg_u32 0, [%r]; ret; };
kernel &k2(kernarg_u32 %x) { ret; };
signature &sig()(arg_u32);
kernel &k3(kernarg_u64 %fp)
{
	ld_kernarg_u64 $d1, [%fp];
	{
		arg_u32 %a;
		icall_u64 $d1 () (%a) &sig;
	}
	ret;
};
"##,
    ),
];

#[test]
fn snippets_match_hsailasm() {
    if !hsailasm_available() {
        return;
    }
    let mut failures = Vec::new();
    for (name, src) in SNIPPETS {
        match compare(name, src) {
            Ok(true) => {}
            Ok(false) => failures.push(format!("{name}: HSAILasm rejects this snippet")),
            Err(e) => failures.push(e),
        }
        // The same with CRLF line ends.
        let crlf = src.replace('\n', "\r\n");
        match compare(&format!("{name} (CRLF)"), &crlf) {
            Ok(true) => {}
            Ok(false) => failures.push(format!("{name} (CRLF): HSAILasm rejects it")),
            Err(e) => failures.push(e),
        }
    }
    assert_none_differ(&failures, usize::MAX, "snippets");
}

/// Line-level mutations of the corpus that HSAILasm still accepts must
/// assemble identically (differential fuzzing). Slow (one HSAILasm run per
/// case), so ignored by default; `ASM_ORACLE_MUTANTS=n` sets the count.
#[test]
#[ignore]
fn corpus_mutants_match_hsailasm() {
    if !hsailasm_available() {
        return;
    }
    let n = env_count("ASM_ORACLE_MUTANTS", 300);
    let files: Vec<String> = corpus_files()
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .collect();
    let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
    let mut rnd = move |m: usize| rng.below(m);
    let (mut same, mut rejected, mut failures) = (0, 0, Vec::new());
    for i in 0..n {
        let src = &files[i % files.len()];
        let mut lines: Vec<String> = src.lines().map(str::to_string).collect();
        for _ in 0..1 + rnd(3) {
            let k = rnd(lines.len());
            match rnd(5) {
                0 => {
                    let l = lines[k].clone();
                    lines.insert(k, l);
                }
                1 => {
                    lines.remove(k);
                }
                2 => {
                    let j = rnd(lines.len());
                    lines.swap(k, j);
                }
                3 => {
                    // Replace the first decimal number on the line.
                    let l = &lines[k];
                    if let Some(p) = l.find(|c: char| c.is_ascii_digit()) {
                        let e = l[p..]
                            .find(|c: char| !c.is_ascii_digit())
                            .map_or(l.len(), |x| p + x);
                        let v = [0u64, 1, 7, 255, 65535, 4294967295, 4294967296][rnd(7)];
                        lines[k] = format!("{}{}{}", &l[..p], v, &l[e..]);
                    }
                }
                _ => {
                    let j = rnd(lines.len());
                    let l = format!("// {}", lines[j]);
                    lines.insert(k, l);
                }
            }
            if lines.is_empty() {
                break;
            }
        }
        let m = lines.join("\n") + "\n";
        match compare(&format!("mutant{i}"), &m) {
            Ok(true) => same += 1,
            Ok(false) => rejected += 1,
            Err(e) => failures.push(format!("{e}\n--- source ---\n{m}")),
        }
    }
    eprintln!(
        "mutants: {same} identical, {rejected} rejected by HSAILasm, {} different",
        failures.len()
    );
    assert_none_differ(&failures, 5, "mutants");
}

/// Random valid modules from `hsail-smith` assemble like HSAILasm.
/// `ASM_ORACLE_SMITH=n` sets the number of seeds (default 25).
#[test]
fn smith_modules_match_hsailasm() {
    if !hsailasm_available() {
        return;
    }
    let n = env_count("ASM_ORACLE_SMITH", 25);
    let mut failures = Vec::new();
    let mut same = 0;
    for seed in 0..n as u64 {
        let src = hsail_smith::generate(seed, &hsail_smith::Config::default());
        match compare(&format!("smith seed {seed}"), &src) {
            Ok(true) => same += 1,
            Ok(false) => {} // HSAILasm rejected: the generator's problem.
            Err(e) => failures.push(e),
        }
    }
    eprintln!("smith: {same} of {n} modules identical");
    assert_none_differ(&failures, 5, "generated modules");
}
