//! The disassembler against HSAILasm, the oracle.
//!
//! * Every `tests/corpus/**/*.hsail` file and every snippet below is
//!   assembled with `HSAILasm`, disassembled with `HSAILasm -disassemble`,
//!   and the text must equal `hsail::disassemble` of the same BRIG, byte for
//!   byte.
//! * BRIG whose instructions share operand entries (as other producers
//!   write it) must print the same text as HSAILasm's unshared BRIG.
//! * Malformed BRIG (truncated, bit-flipped, overwritten words) must give an
//!   error naming section and offset, or text, and never panic.
//!
//! Without HSAILasm the tests say so on stderr and pass, unless `CI` is set.

use oracles::mutate::{flip_bit, set_aligned, truncate};
use oracles::{Rng, hsailasm_assemble, hsailasm_available, hsailasm_disassemble};

/// Small HSAIL programs covering what the corpus may not: every line of
/// the expected text comes from HSAILasm at test time.
const SNIPPETS: &[(&str, &str)] = &[
    (
        "brief_example",
        r#"module &VectorAdd:1:0:$full:$small:$default;
kernel &vec_add(kernarg_u32 %a, kernarg_u32 %b)
{
@entry:
    // BB#0:   // %entry
    ld_kernarg_u32 $s0, [%b];
    cbr_b1 $c0, @BB0_2;
@BB0_1:
    ret;     // %if.end
@BB0_2:
    add_f32 $s2, $s3, 1.5f;
    ld_global_f32 $s3, [$s2+4];
    br @BB0_1;
};
"#,
    ),
    (
        "integers",
        r#"module &m:1:0:$full:$large:$default;
prog global_u32 &g0 = 300;
prog global_s32 &g1 = -300;
prog global_u32 &g2 = 4096;
prog global_u32 &g3 = 16384;
prog global_u32 &g4 = 100000;
prog global_u32 &g5 = 123456;
prog global_u64 &g6 = 0xffffffffffffffff;
prog global_s64 &g7 = -1;
prog global_u8 &g8 = 255;
prog global_s8 &g9 = -128;
prog global_u32 &g10[4] = u32[](1, 2, 3, 0x80000000);
prog global_f32 &g11[2] = f32[](1.0f, 0F7fc00000);
prog global_f64 &g12 = 1.5;
prog global_f16 &g13 = 1.5h;
prog global_b32 &g14 = 300;
prog global_b64 &g15 = 65535;
prog global_u16x2 &g16 = u16x2(1,2);
prog global_f32x2 &g17 = f32x2(1.0f,2.0f);
prog global_b128 &g18 = u8x16(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16);
prog global_u32 &g19 = 8192;
prog global_u32 &g20 = 8193;
prog global_u32 &g21 = 257;
prog global_u32 &g22 = 256;
prog global_s32 &g23 = -257;
prog global_u32 &g24 = 1000;
prog global_u32 &g25 = 1001;
prog global_u32 &g26 = 10001;
prog global_s16 &ss[3] = s16[](-1, 300, -300);
prog global_u16 &us[2] = u16[](65535, 300);
prog global_f16x2 &fh = f16x2(1.0h, 2.0h);
prog global_s8x4 &s8 = s8x4(-1, 2, -128, 127);
prog global_u64x2 &u64x2v = u64x2(1, 0xffffffffffffffff);
prog global_s32 &smin = -2147483648;
prog global_s64 &smin64 = -9223372036854775808;
prog global_u32 &zero = 0;
prog global_u32 &noinit[4];
decl prog global_u32 &unk[];
prog global_b8 &agg[16] = {u32(1), u32(2), f32(1.0f), u8x4(1,2,3,4)};
prog global_b8 &agg1[4] = {u32(7)};
"#,
    ),
    (
        "functions_and_calls",
        r#"module &m:1:0:$full:$large:$default;
decl prog function &f1(arg_u32 %r)(arg_u32 %x, arg_f32 %y);
prog function &f2()(arg_u32 %x)
{
	ret;
};
function &f3(arg_u32 %r)()
{
	st_arg_u32 0, [%r];
	ret;
};
prog function &e()()
{
};
indirect function &ind(arg_u32 %r)(arg_u32 %a)
{
	ret;
};
decl prog indirect function &ind2()();
signature &sig(arg_u32 %r)(arg_u32 %a);
signature &s0()();
prog fbarrier &fb;
decl prog fbarrier &fb2;
decl prog kernel &k1(kernarg_u32 %a);
kernel &k0()
{
	ret;
};
prog kernel &k(kernarg_u64 %p)
{
	{
		arg_u32 %r;
		arg_u32 %x;
		arg_f32 %y;
		st_arg_u32 $s1, [%x];
		st_arg_f32 $s1, [%y];
		call &f1 (%r) (%x, %y);
		ld_arg_u32 $s1, [%r];
	}
	{
		arg_u32 %x;
		call &f2 () (%x);
	}
	{
		arg_u32 %r2;
		call &f3 (%r2) ();
	}
	{
		arg_u32 %r;
		arg_u32 %a;
		icall_u64 $d1 (%r) (%a) &sig;
	}
	initfbar &fb;
	joinfbar &fb;
	joinfbar_width(all) &fb;
	waitfbar $s1;
	ldf_u32 $s1, &fb;
	releasefbar &fb;
@L1:
@L2:
	sbr_u32 $s1 [@L1, @L2];
	cbr_width(all)_b1 $c0, @L1;
	br @L2;
	ret;
};
"#,
    ),
    (
        "directives_and_modifiers",
        r#"module &m:1:0:$full:$large:$near;
extension "IMAGE";
// top comment with tab	here
prog global_u32 &gx;
prog kernel &k(kernarg_u64 %p, kernarg_roimg %im, kernarg_samp %sa)
{
	enablebreakexceptions 0x1f;
	requiredworkgroupsize 64, 1, 1;
	maxdynamicgroupsize 1024;
	maxflatgridsize 4294967295;
	maxflatworkgroupsize 256;
	requireddim 2;
	requiredgridsize 100000, 200, 300;
	enabledetectexceptions 0;
	requirenopartialworkgroups;
	pragma "amd", 1, u32(2), s8(-1), f16(1.0h), 2.0, "s", u8x4(1,2,3,4);
	loc 10 "a.hsail";
	loc 11 3 "a\tb\\c\"d.hsail";
	align(16) group_u32 %grp[16];
	private_u32 %pv;
	align(8) global_u32 %gg;
	const global_u32 %cg = 3;
	alloc(agent) global_u32 %ag;
	readonly_u32 %ro[] = u32[](1,2);
	alloc(agent) global_roimg %imgs[2] = roimg[](roimg(geometry = 2d, width = 4, height = 2, channel_type = float, channel_order = rgba), roimg(geometry = 2da, width = 1, height = 1, array = 3, channel_type = float, channel_order = rgba));
	readonly_samp %sm[1] = samp[](samp(coord = normalized, filter = linear, addressing = clamp_to_edge));
	add_ftz_f32 $s1, $s2, $s3;
	add_near_f32 $s1, $s2, $s3;
	add_zero_f64 $d1, $d2, $d3;
	add_pp_sat_u8x4 $s1, $s2, $s3;
	add_ftz_up_pp_f32x2 $d1, $d2, $d3;
	cvt_u32_f32 $s1, $s2;
	cvt_zeroi_u32_f32 $s1, $s2;
	cvt_neari_u32_f32 $s1, $s2;
	cvt_ftz_zeroi_sat_u32_f32 $s1, $s2;
	cvt_f16_f32 $s1, $s2;
	cvt_near_f16_f32 $s1, $s2;
	cvt_f32_u32 $s1, $s2;
	cvt_zero_f32_u32 $s1, $s2;
	cvt_f64_f32 $d1, $s2;
	cvt_upi_s32_f64 $s1, $d1;
	cvt_s8_f32 $s1, $s1;
	cvt_b1_f32 $c1, $s1;
	cvt_f32_b1 $s1, $c1;
	cvt_u32_u64 $s1, $d1;
	cmp_eq_b1_u32 $c1, $s1, 5;
	cmp_lt_ftz_b1_f32 $c1, $s1, 5.0f;
	cmp_eq_pp_u8x4_u8x4 $s1, $s2, $s3;
	cmp_sgtu_ftz_b1_f64 $c1, $d1, $d2;
	ld_global_align(8)_const_equiv(2)_u32 $s1, [%gg];
	ld_v4_width(4)_f32 ($s1,$s2,$s3,$s4), [$d1+8];
	ld_global_width(all)_u32 $s1, [$d1-8];
	st_v2_global_u32 ($s1, $s2), [$d1+0x100000000];
	ld_global_u32 $s1, [$d1+0x7fffffffffffffff];
	ld_global_u32 $s1, [0xffffffffffffffff];
	ld_kernarg_u64 $d1, [%p][-8];
	ld_kernarg_u64 $d1, [%p][8];
	st_group_u32 $s1, [%grp][4];
	st_group_u32 $s1, [%grp][$s2-4];
	ld_group_u32 $s1, [0xfffffffc];
	ld_group_u32 $s1, [$s2+0x7fffffff];
	ld_group_u32 $s1, [$s2+0x80000000];
	lda_group_u32 $s1, [%grp];
	lda_u64 $d1, [$d2];
	lda_global_u64 $d1, [&gx][$d2+4];
	ld_u32 $s1, [0];
	ld_kernarg_roimg $d1, [%im];
	atomic_add_global_scar_agent_equiv(3)_u32 $s1, [$d1], 1;
	atomic_cas_global_rlx_system_b64 $d1, [$d2], 1, 2;
	atomic_ld_global_scacq_wg_b32 $s1, [$d2];
	atomicnoret_st_global_screl_wave_b32 [$d2], $s1;
	memfence_scar_agent;
	memfence_screl_system;
	signal_add_rlx_u64_sig64 $d1, $d2, 1;
	signalnoret_st_screl_b64_sig64 $d2, 5;
	signal_wait_eq_scacq_s64_sig64 $d1, $d2, 1;
	activelanecount_u32_b1 $s1, $c1;
	activelanecount_width(64)_u32_b1 $s1, $c1;
	activelaneid_u32 $s1;
	activelanemask_v4_b64_b1 ($d1,$d2,$d3,$d4), $c0;
	activelanepermute_b32 $s1, $s2, $s3, $s4, $c1;
	activelanepermute_width(WAVESIZE)_b32 $s1, $s2, $s3, $s4, $c1;
	barrier;
	barrier_width(64);
	wavebarrier;
	popcount_u32_b64 $s1, $d1;
	combine_v2_b64_b32 $d1, ($s1, $s2);
	expand_v4_b32_b128 ($s1,$s2,$s3,$s4), $q1;
	mov_b128 $q1, u32x4(1,2,3,4);
	mov_b64 $d1, WAVESIZE;
	mov_b1 $c1, 1;
	mov_b32 $s1, 0F3fc00000;
	mov_b64 $d1, 1.0;
	mov_f64 $d1, 0D7ff0000000000000;
	add_f64 $d1, $d2, -0.0;
	add_s32 $s1, $s2, -257;
	add_s32 $s1, $s2, -8192;
	add_s32 $s1, $s2, -65536;
	add_s32 $s1, $s2, -100000;
	add_u64 $d1, $d2, 0x8000000000000000;
	add_u64 $d1, $d2, 10000000000;
	add_ftz_f16 $s1, $s2, 1.0h;
	add_pp_u16x2 $s1, $s2, u16x2(300, 1);
	add_u32 $s1, $s2, WAVESIZE;
	segmentp_global_b1_u64 $c1, $d1;
	ftos_group_nonull_u32_u64 $s1, $d1;
	stof_private_u64_u32 $d1, $s1;
	nullptr_group_u32 $s1;
	nullptr_u64 $d1;
	workitemabsid_u32 $s1, 0;
	kernargbaseptr_u64 $d1;
	addqueuewriteindex_global_scar_u64 $d1, [$d2], 1;
	ldqueuereadindex_global_scacq_u64 $d1, [$d2];
	stqueuewriteindex_screl_u64 [$d2], $d1;
	clock_u64 $d1;
	packetcompletionsig_sig64 $d1;
	debugtrap_u32 0;
	setdetectexcept_u32 1;
	getdetectexcept_u32 $s1;
	alloca_align(16)_u32 $s1, 16;
	alloca_u32 $s1, 16;
	class_b1_f32 $c1, $s1, 3;
	sad_u32_u8x4 $s1, $s2, $s3, $s4;
	shuffle_u8x4 $s1, $s2, $s3, 0x1b;
	pack_u8x4_u32 $s1, $s2, $s3, 1;
	unpack_u32_u8x4 $s1, $s2, 1;
	bitextract_u32 $s1, $s2, 1, 2;
	rdimage_v4_2d_f32_roimg_f32 ($s1, $s2, $s3, $s4), $d1, $d2, ($s5, $s6);
	ldimage_v4_1d_u32_roimg_u32 ($s1, $s2, $s3, $s4), $d1, $s5;
	stimage_v4_2d_f32_rwimg_u32 ($s1, $s2, $s3, $s4), $d1, ($s5, $s6);
	queryimage_2d_width_u32_roimg $s1, $d1;
	querysampler_filter_u32 $s1, $d2;
	imagefence;
	nop;
	ret;
};
"#,
    ),
    (
        "small_model_images",
        r#"module &m:1:0:$full:$small:$zero;
extension "IMAGE";
prog readonly_roimg &img = roimg(geometry = 1d, width = 4, channel_type = unorm_int8, channel_order = r);
prog readonly_rwimg &imgs[2] = rwimg[](rwimg(geometry = 2d, width = 4, height = 2, channel_type = float, channel_order = rgba), rwimg(geometry = 3d, width = 1, height = 1, depth = 3, channel_type = float, channel_order = rgba));
prog readonly_samp &smp[2] = samp[](samp(coord = normalized, filter = linear, addressing = clamp_to_edge), samp(coord = unnormalized, filter = nearest, addressing = undefined));
prog global_roimg &gimg;
prog global_sig32 &sg;
prog align(16) global_sig32 &sg2;
kernel &k(kernarg_u32 %a)
{
	ld_kernarg_u32 $s1, [%a];
	ld_kernarg_u32 $s1, [%a][4];
	ld_global_u32 $s1, [$s2-4];
	add_u32 $s1, $s2, 0x7fffffff;
	ret;
};
"#,
    ),
    (
        "calls_and_args",
        r#"module &m:1:0:$full:$large:$default;
// c1
function &two(arg_u64 %r2)(arg_u32 %a, align(8) arg_u32 %b, arg_u8 %c[4])
{
	// inside
	ret;
};
function &f3(arg_u32 %r)(arg_u32 %a)
{
	ret;
};
function &f4(arg_u32 %r)(arg_u32 %a)
{
	ret;
};
signature &sg(arg_u64 %r2)(arg_u32 %a, arg_u32 %b);
// c2
kernel &k(align(8) kernarg_u32 %a, kernarg_u64 %b)
{
	loc 1 1 "x";
	loc 5 7 "";
	mov_b32 $s2000, 1;
	{
		// arg comment
		arg_u32 %r;
		arg_u32 %a;
		scall_u32 $s1 (%r) (%a) [&f3, &f4];
	}
	sbr_width(64)_u64 $d1 [@a];
@a:
	// end
	ret;
};
"#,
    ),
    (
        "misc_constants",
        r#"module &m:1:0:$full:$large:$default;
prog global_sig64 &s = sig64(0);
prog global_sig64 &sa[2] = sig64[](sig64(0), sig64(0));
prog global_b16 &bh = 300;
prog global_f16 &fh[3] = f16[](1.0h, -2.0h, 0H7c00);
prog global_u8x8 &u8 = u8x8(1,2,3,4,5,6,7,255);
prog global_s16x4 &s16 = s16x4(-1,-300,300,5);
kernel &k()
{
	pragma "a", "b\x01\n";
	mov_b64 $d1, s32x2(-1, 2);
	mov_b32 $s1, s16x2(-300, 2);
	ret;
};
"#,
    ),
    (
        "body_aggregates",
        r#"module &m:1:0:$full:$large:$default;
kernel &k()
{
	global_b8 %agg[8] = {u32(1), u32(2)};
	readonly_b8 %s[6] = {u8x4(1,2,3,4), u16(7)};
	readonly_u8 %t[3] = u8[](1,2,3);
	ret;
};
"#,
    ),
];

/// HSAILasm's text of BRIG it made itself.
fn oracle_text(brig: &[u8], what: &str) -> String {
    hsailasm_disassemble(brig)
        .unwrap_or_else(|r| panic!("HSAILasm -disassemble {what} failed: {}", r.output))
}

/// HSAILasm's BRIG of a snippet.
fn snippet_brig(name: &str, text: &str) -> Vec<u8> {
    hsailasm_assemble(text).unwrap_or_else(|r| panic!("HSAILasm rejects {name}: {}", r.output))
}

/// Why two texts differ, for a failure message.
fn difference(want: &str, got: &str) -> String {
    oracles::text_difference(want, got).unwrap_or_default()
}

/// Compares ours with HSAILasm for one source; `false` when HSAILasm
/// rejects the source (not a disassembler case).
fn check_source(name: &str, text: &str, failures: &mut Vec<String>) -> bool {
    let brig = match hsailasm_assemble(text) {
        Ok(b) => b,
        Err(r) => {
            eprintln!("note: HSAILasm rejects {name}: {}", r.output.trim());
            return false;
        }
    };
    let want = oracle_text(&brig, name);
    match hsail::disassemble(&brig) {
        Ok(got) if got == want => {}
        Ok(got) => failures.push(format!("{name}: {}", difference(&want, &got))),
        Err(e) => failures.push(format!("{name}: error {e}")),
    }
    true
}

#[test]
fn corpus_and_snippets_match_hsailasm() {
    if !hsailasm_available() {
        return;
    }
    let files = oracles::corpus_files();
    let mut failures = Vec::new();
    let (mut checked, mut rejected) = (0, 0);
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read corpus file");
        if check_source(&f.display().to_string(), &text, &mut failures) {
            checked += 1;
        } else {
            rejected += 1;
        }
    }
    let mut snippet_failures = Vec::new();
    for (name, text) in SNIPPETS {
        if check_source(name, text, &mut failures) {
            checked += 1;
        } else {
            snippet_failures.push(*name);
        }
    }
    eprintln!(
        "disasm oracle: {} of {checked} match HSAILasm ({} corpus files, {} snippets; {rejected} corpus files rejected by HSAILasm)",
        checked - failures.len(),
        files.len(),
        SNIPPETS.len()
    );
    assert!(
        snippet_failures.is_empty(),
        "HSAILasm rejects snippets {snippet_failures:?}"
    );
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Little-endian helpers for editing BRIG in the tests.
fn rd32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn rd64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}
fn wr32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// File offsets of the data, code and operand sections.
fn sections(b: &[u8]) -> [usize; 3] {
    let index = rd64(b, 96) as usize;
    [0, 1, 2].map(|i| rd64(b, index + 8 * i) as usize)
}

/// Rewrites HSAILasm BRIG so that identical operand entries are shared:
/// every operand reference (instruction operand lists, address registers,
/// vector elements) points at the first operand entry with the same bytes.
/// Returns how many references changed.
fn share_operands(b: &mut [u8]) -> usize {
    let [data, code, operand] = sections(b);
    let op_len = rd64(b, operand) as usize;
    let op_first = rd32(b, operand + 8) as usize;
    // Canonical offset for every operand entry.
    let mut canon = std::collections::HashMap::new();
    let mut first_of: std::collections::HashMap<Vec<u8>, u32> = Default::default();
    let mut at = op_first;
    let mut entries = Vec::new();
    while at < op_len {
        let len = usize::from(u16::from_le_bytes([b[operand + at], b[operand + at + 1]]));
        let bytes = b[operand + at..operand + at + len].to_vec();
        let c = *first_of.entry(bytes).or_insert(at as u32);
        canon.insert(at as u32, c);
        entries.push(at);
        at += len;
    }
    let mut changed = 0;
    let mut redirect = |b: &mut [u8], file_at: usize| {
        let old = rd32(b, file_at);
        if let Some(&c) = canon.get(&old)
            && c != old
        {
            wr32(b, file_at, c);
            changed += 1;
        }
    };
    // Instruction operand lists (lists live in hsa_data).
    let code_len = rd64(b, code) as usize;
    let mut at = rd32(b, code + 8) as usize;
    let mut lists = Vec::new();
    while at < code_len {
        let len = usize::from(u16::from_le_bytes([b[code + at], b[code + at + 1]]));
        let kind = u16::from_le_bytes([b[code + at + 2], b[code + at + 3]]);
        if (0x2000..0x3000).contains(&kind) {
            lists.push(rd32(b, code + at + 8));
        }
        at += len;
    }
    // Vector operand lists.
    for &e in &entries {
        let kind = u16::from_le_bytes([b[operand + e + 2], b[operand + e + 3]]);
        if kind == 0x3009 {
            lists.push(rd32(b, operand + e + 4));
        }
        if kind == 0x3000 && rd32(b, operand + e + 8) != 0 {
            redirect(b, operand + e + 8);
        }
    }
    lists.sort_unstable();
    lists.dedup();
    for l in lists.into_iter().filter(|&l| l != 0) {
        let n = rd32(b, data + l as usize) as usize / 4;
        for i in 0..n {
            redirect(b, data + l as usize + 4 + 4 * i);
        }
    }
    changed
}

/// Entries of a section as `(offset, bytes)`: `hsa_data` entries are a
/// length word plus bytes padded to 4; the others start with `BrigBase`.
fn section_entries(b: &[u8], sec: usize, data: bool) -> Vec<(u32, Vec<u8>)> {
    let len = rd64(b, sec) as usize;
    let mut at = rd32(b, sec + 8) as usize;
    let mut out = Vec::new();
    while at < len {
        let size = if data {
            (4 + rd32(b, sec + at) as usize).next_multiple_of(4)
        } else {
            usize::from(u16::from_le_bytes([b[sec + at], b[sec + at + 1]]))
        };
        out.push((at as u32, b[sec + at..sec + at + size].to_vec()));
        at += size;
    }
    out
}

/// Rewrites HSAILasm BRIG with the `hsa_data` and `hsa_operand` entries in
/// reverse order (as a producer with another layout might write them),
/// fixing every reference. Returns whether anything moved.
fn reverse_layout(b: &mut [u8]) -> bool {
    let [data, code, operand] = sections(b);
    let datas = section_entries(b, data, true);
    let operands = section_entries(b, operand, false);
    let codes = section_entries(b, code, false);
    // New positions: same sizes, reverse order.
    let place = |entries: &[(u32, Vec<u8>)], first: u32| {
        let mut map = std::collections::HashMap::new();
        let mut at = first;
        for (off, bytes) in entries.iter().rev() {
            map.insert(*off, at);
            at += bytes.len() as u32;
        }
        map
    };
    let dmap = place(&datas, rd32(b, data + 8));
    let omap = place(&operands, rd32(b, operand + 8));
    let fix = |map: &std::collections::HashMap<u32, u32>, b: &mut [u8], at: usize| {
        let old = rd32(b, at);
        if old != 0 {
            wr32(b, at, map[&old]);
        }
    };
    // Operand lists in hsa_data hold operand offsets; code lists hold code
    // offsets (unchanged). Find the operand lists first.
    let mut operand_lists = Vec::new();
    for (off, e) in &codes {
        let kind = u16::from_le_bytes([e[2], e[3]]);
        let at = code + *off as usize;
        match kind {
            0x1003 => operand_lists.push(rd32(b, at + 8)),
            0x100c => operand_lists.push(rd32(b, at + 4)),
            0x2000..=0x2011 => operand_lists.push(rd32(b, at + 8)),
            _ => {}
        }
        match kind {
            0x1002 | 0x1004..=0x1009 | 0x100a | 0x100b | 0x100d | 0x100e => fix(&dmap, b, at + 4),
            0x100c => fix(&dmap, b, at + 4),
            _ => {}
        }
        match kind {
            0x1003 | 0x2000..=0x2011 => fix(&dmap, b, at + 8),
            0x100e => fix(&omap, b, at + 8),
            _ => {}
        }
    }
    for (off, e) in &operands {
        let kind = u16::from_le_bytes([e[2], e[3]]);
        let at = operand + *off as usize;
        match kind {
            0x3009 => operand_lists.push(rd32(b, at + 4)),
            0x3007 => operand_lists.push(rd32(b, at + 8)),
            _ => {}
        }
        match kind {
            0x3000 => fix(&omap, b, at + 8),
            0x3002 | 0x3009 | 0x300b => fix(&dmap, b, at + 4),
            0x3004 | 0x3007 => fix(&dmap, b, at + 8),
            _ => {}
        }
    }
    operand_lists.sort_unstable();
    operand_lists.dedup();
    for l in operand_lists.into_iter().filter(|&l| l != 0) {
        let at = data + l as usize;
        let n = rd32(b, at) as usize / 4;
        for i in 0..n {
            fix(&omap, b, at + 4 + 4 * i);
        }
    }
    // Move the entries (references inside them are already fixed).
    let moved = |b: &[u8], sec: usize, entries: &[(u32, Vec<u8>)]| {
        entries
            .iter()
            .map(|(off, e)| {
                (
                    *off,
                    b[sec + *off as usize..sec + *off as usize + e.len()].to_vec(),
                )
            })
            .collect::<Vec<_>>()
    };
    let new_datas = moved(b, data, &datas);
    let new_operands = moved(b, operand, &operands);
    for (off, e) in &new_datas {
        let to = data + dmap[off] as usize;
        b[to..to + e.len()].copy_from_slice(e);
    }
    for (off, e) in &new_operands {
        let to = operand + omap[off] as usize;
        b[to..to + e.len()].copy_from_slice(e);
    }
    datas.len() > 1 || operands.len() > 1
}

/// Each snippet's BRIG, changed by `rewrite` (without changing what it
/// means): HSAILasm and we must both print it as HSAILasm prints the
/// original.
fn rewritten_snippets_print_the_same(what: &str, mut rewrite: impl FnMut(&str, &mut [u8])) {
    for (name, text) in SNIPPETS {
        let mut brig = snippet_brig(name, text);
        let want = oracle_text(&brig, name);
        rewrite(name, &mut brig);
        assert_eq!(
            oracle_text(&brig, name),
            want,
            "{name}: HSAILasm prints the {what} BRIG differently"
        );
        let got = hsail::disassemble(&brig).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(got == want, "{name}: {}", difference(&want, &got));
    }
}

#[test]
fn other_layout_prints_the_same() {
    if !hsailasm_available() {
        return;
    }
    rewritten_snippets_print_the_same("moved", |name, brig| {
        let original = brig.to_vec();
        assert!(reverse_layout(brig), "{name}: nothing to move");
        assert_ne!(brig, &original[..], "{name}: layout unchanged");
    });
}

/// HSAILasm `-g` adds a debug section after the three standard ones; the
/// text is unchanged.
#[test]
fn extra_sections_are_ignored() {
    if !hsailasm_available() {
        return;
    }
    // (HSAILasm -g crashes on "functions_and_calls"; this one works.)
    let (name, text) = SNIPPETS[3];
    let brig = oracles::hsailasm_assemble_with(text, &["-g", "-include-source"])
        .unwrap_or_else(|r| panic!("HSAILasm -g rejects {name}: {}", r.output));
    assert!(rd32(&brig, 92) > 3, "HSAILasm -g wrote no extra section");
    let want = oracle_text(&brig, name);
    let got = hsail::disassemble(&brig).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(got == want, "{name}: {}", difference(&want, &got));
}

#[test]
fn shared_operands_print_like_unshared() {
    if !hsailasm_available() {
        return;
    }
    let mut total = 0;
    rewritten_snippets_print_the_same("shared", |_, brig| total += share_operands(brig));
    assert!(total > 50, "only {total} operand references were shared");
}

#[test]
fn malformed_brig_is_an_error_not_a_panic() {
    if !hsailasm_available() {
        return;
    }
    let seeds: Vec<Vec<u8>> = SNIPPETS
        .iter()
        .map(|(name, text)| snippet_brig(name, text))
        .collect();
    let mut rng = Rng::new(0x005e_ed0f_b416);
    let (mut errors, mut texts) = (0, 0);
    for case in 0..6000 {
        let mut b = seeds[case % seeds.len()].clone();
        match rng.below(4) {
            0 => truncate(&mut rng, &mut b),
            1 => {
                for _ in 0..1 + rng.below(4) {
                    flip_bit(&mut rng, &mut b);
                }
            }
            2 => {
                let v = rng.next_u64() as u32;
                set_aligned(&mut rng, &mut b, 0, &v.to_le_bytes());
            }
            _ => {
                // Aim at the sections (past the header): small values are
                // likely offsets, kinds and enum values.
                let v = rng.below(64) as u8;
                set_aligned(&mut rng, &mut b, 104, &[v]);
            }
        }
        match hsail::disassemble(&b) {
            Ok(_) => texts += 1,
            Err(e) => {
                let msg = e.to_string();
                assert!(
                    msg.contains("offset"),
                    "case {case}: error without a location: {msg}"
                );
                errors += 1;
            }
        }
    }
    eprintln!("mutations: {errors} errors, {texts} printed");
    assert!(errors > 1000, "too few mutations were detected: {errors}");
}

/// A generated kernel of `n` instructions (loads, arithmetic, compares,
/// conversions, labels every 50 instructions).
fn big_module(n: usize) -> String {
    let mut rng = Rng::new(0x0123_4567_89ab_cdef);
    let mut s =
        String::from("module &big:1:0:$full:$large:$default;\nprog kernel &k(kernarg_u64 %p)\n{\n");
    for i in 0..n {
        if i % 50 == 0 {
            s.push_str(&format!("@L{i}:\n"));
        }
        let (a, b, c) = (rng.below(20), rng.below(20), rng.below(100_000));
        let line = match rng.below(6) {
            0 => format!("\tadd_u32 $s{a}, $s{b}, {c};\n"),
            1 => format!("\tmul_f32 $s{a}, $s{b}, 0F3fc00000;\n"),
            2 => format!("\tld_global_u32 $s{a}, [$d{b}+{c}];\n"),
            3 => format!("\tcmp_lt_b1_s32 $c1, $s{a}, $s{b};\n"),
            4 => format!("\tmad_u64 $d{a}, $d{b}, $d1, {c};\n"),
            _ => format!("\tcvt_f32_u32 $s{a}, $s{b};\n"),
        };
        s.push_str(&line);
    }
    s.push_str("\tret;\n};\n");
    s
}

/// A large kernel (100k instructions) prints exactly as HSAILasm prints it.
/// (Speed is measured by `bench/asm`, not by tests.)
#[test]
fn big_module_matches_hsailasm() {
    if !hsailasm_available() {
        return;
    }
    let brig = snippet_brig("big module", &big_module(100_000));
    let text = hsail::disassemble(&brig).expect("disassemble big module");
    let want = oracle_text(&brig, "big module");
    assert!(text == want, "big module: {}", difference(&want, &text));
}
