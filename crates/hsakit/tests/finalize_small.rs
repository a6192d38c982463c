//! The small machine model (`$small`, PRM 2.9) end to end: kernels of
//! `tests/finalize/` whose buffer addresses are `kernarg_u32` run through
//! `hsakit run` (which puts a small-model program's memory below 4 GiB)
//! on gfx90a and gfx900, and every buffer afterwards must equal what a
//! Rust reference written from the PRM computes. gccbrig-11 cannot check
//! them: it refuses `$small` modules ("Only HSA 'large' machine model
//! supported").

mod common;

use common::{Run, hsakit, random_bytes, words};

const TARGETS: [&str; 2] = ["gfx90a", "gfx900"];

/// One `--arg` of a run.
enum Arg<'a> {
    /// A global buffer with these initial bytes (read back afterwards).
    Buf(&'a [u8]),
    /// Anything else, spelled as `hsakit run --arg` takes it.
    Other(&'a str),
}

/// Runs `kernel` of `tests/finalize/<file>` on `mcpu`; returns the final
/// bytes of every buffer argument, in order.
fn run(file: &str, kernel: &str, dims: (&str, &str), args: &[Arg], mcpu: &str) -> Vec<Vec<u8>> {
    let path = oracles::workspace_root().join("tests/finalize").join(file);
    let r = Run::new(path, kernel).grid(dims.0).group(dims.1).mcpu(mcpu);
    let r = args.iter().fold(r, |r, a| match a {
        Arg::Buf(bytes) => r.arg_buf(bytes),
        Arg::Other(spec) => r.arg(spec),
    });
    r.run()
        .into_iter()
        .zip(args)
        .filter(|(_, a)| matches!(a, Arg::Buf(_)))
        .map(|(b, _)| b)
        .collect()
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// `small_memory.hsail`: every small-model address form (see the file).
#[test]
fn small_memory_matches_the_prm() {
    let input = random_bytes(512, 1);
    let n = 77u32;
    let items = 128u32;
    let inw = words(&input);
    // The reference, per work-item (module comment of the kernel).
    let tab = [10u32, 20, 30, 40];
    let ro = [100u32, 200, 300, 400];
    let mut out = vec![0u32; 2048];
    for i in 0..items {
        let r = &mut out[16 * i as usize..16 * i as usize + 16];
        let x = inw[i as usize];
        // segmentp bits: group(g), global(in), private(p), group(null).
        let segmentp = 1 | 1 << 2 | 1 << 4 | 1 << 6;
        let rec = [
            x,
            n,
            n,
            tab[(i % 4) as usize],
            ro[(3 - i % 4) as usize],
            i + 1000,
            0,
            segmentp,
            i + 2000,
            0,
            0,
            0xffff_ffff,
            x,
            4,
            8,
            0xffff_fffc,
        ];
        r[..rec.len()].copy_from_slice(&rec);
    }
    let count = [items, (0..items).sum(), 0, 0];
    let zeros = vec![0u8; 8192];
    let zeros16 = vec![0u8; 64];
    let u32_n = format!("u32={n}");
    for mcpu in TARGETS {
        let got = run(
            "small_memory.hsail",
            "&small_memory",
            ("128", "64"),
            &[
                Arg::Buf(&input),
                Arg::Buf(&zeros),
                Arg::Buf(&zeros16),
                Arg::Other(&u32_n),
            ],
            mcpu,
        );
        assert_eq!(got[0], input, "{mcpu}: the input buffer changed");
        let o = words(&got[1]);
        for i in 0..items as usize {
            assert_eq!(
                o[16 * i..16 * i + 16],
                out[16 * i..16 * i + 16],
                "{mcpu}: work-item {i}"
            );
        }
        assert_eq!(
            got[2][..16],
            bytes_of(&count),
            "{mcpu}: the atomic counters"
        );
    }
}

/// A buffer passed as a 32-bit kernel argument of a large-model kernel
/// cannot be addressed: a clear error, not a truncated address.
#[test]
fn a_32_bit_buffer_argument_needs_the_small_model() {
    let dir = oracles::Scratch::new("finalize-small-large");
    let hsail = dir.path("k.hsail");
    std::fs::write(
        &hsail,
        "module &m:1:0:$full:$large:$default;\n\
         kernel &k(kernarg_u32 %p) { ld_kernarg_u32 $s0, [%p]; };\n",
    )
    .unwrap();
    let data = dir.path("d.bin");
    std::fs::write(&data, [0u8; 16]).unwrap();
    let h = hsail.display().to_string();
    let buf = format!("buf={}", data.display());
    let out = hsakit(&[
        "run", &h, "--kernel", "&k", "--grid", "1", "--group", "1", "--arg", &buf,
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "a large-model run accepted it");
    assert!(
        err.contains("does not fit") && err.contains("--machine-model small"),
        "{err}"
    );
}

/// A finalized `$small` code object runs with `--machine-model small`
/// (code objects do not record the machine model).
#[test]
fn small_code_objects_run_in_a_small_system() {
    let dir = oracles::Scratch::new("finalize-small-co");
    let hsail = oracles::workspace_root().join("tests/finalize/prm_3_1_vector_add_small.hsail");
    let co = dir.path("va.co").display().to_string();
    let out = hsakit(&["finalize", &hsail.display().to_string(), "-o", &co]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ones: Vec<u8> = bytes_of(&[1.0f32.to_bits(); 4]);
    let (a, c) = (dir.path("a.bin"), dir.path("c.bin"));
    std::fs::write(&a, &ones).unwrap();
    let buf = format!("buf={}", a.display());
    let out_c = format!("2={}", c.display());
    let mut cmd = vec![
        "run",
        &co,
        "--kernel",
        "&_OpenCL_vec_add_kernel",
        "--grid",
        "4",
        "--group",
        "4",
        "--arg",
        &buf,
        "--arg",
        &buf,
        "--arg",
        "zeros=16",
        "--arg",
        "u32=3",
        "--out",
        &out_c,
    ];
    // Without the option the system is large: a clear error.
    let out = hsakit(&cmd);
    assert!(!out.status.success());
    cmd.extend(["--machine-model", "small"]);
    let out = hsakit(&cmd);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let two = 2.0f32.to_bits();
    assert_eq!(words(&std::fs::read(&c).unwrap()), [two, two, two, 0]);
}

/// PRM 4.20: group offsets of dynamic group memory passed as u32 kernel
/// arguments (`--arg local=N`), past the kernel's static group variables.
#[test]
fn dynamic_group_memory_follows_the_static_group_segment() {
    // 24 static bytes (%known, %more_known), rounded up to 16: the
    // dynamic buffers start at 32 and 48.
    let expected = [1.0f32.to_bits(), 2.0f32.to_bits(), 5, 6, 32, 48];
    let zeros = [0u8; 24];
    for mcpu in TARGETS {
        let got = run(
            "prm_4_20_dynamic_group.hsail",
            "&k1",
            ("64", "64"),
            &[
                Arg::Other("local=16"),
                Arg::Other("local=16"),
                Arg::Buf(&zeros),
            ],
            mcpu,
        );
        assert_eq!(words(&got[0]), expected, "{mcpu}");
    }
}

/// f32 inputs: finite values of both signs and many magnitudes (no NaN,
/// whose payload the PRM leaves open).
fn floats(n: usize, seed: u64) -> Vec<u8> {
    let bits = words(&random_bytes(4 * n, seed));
    let v: Vec<u32> = bits
        .iter()
        .map(|&b| {
            // Exponent kept below 255: finite, subnormals included.
            let exp = (b >> 23 & 0xff) % 255;
            b & 0x807f_ffff | exp << 23
        })
        .collect();
    bytes_of(&v)
}

/// PRM 3.1 verbatim (`$small`): c[i] = a[i] + b[i] for i < n, IEEE
/// single precision with round to nearest even and subnormals kept
/// (`$full` profile, no `ftz`).
#[test]
fn prm_3_1_vector_add_small() {
    let (a, b) = (floats(256, 2), floats(256, 3));
    let n = 200;
    let (aw, bw) = (words(&a), words(&b));
    let c: Vec<u32> = (0..256)
        .map(|i| match i < n {
            true => (f32::from_bits(aw[i]) + f32::from_bits(bw[i])).to_bits(),
            false => 0,
        })
        .collect();
    let zeros = [0u8; 1024];
    for mcpu in TARGETS {
        let got = run(
            "prm_3_1_vector_add_small.hsail",
            "&_OpenCL_vec_add_kernel",
            ("256", "64"),
            &[
                Arg::Buf(&a),
                Arg::Buf(&b),
                Arg::Buf(&zeros),
                Arg::Other("u32=200"),
            ],
            mcpu,
        );
        assert_eq!(words(&got[2]), c, "{mcpu}");
    }
}

/// PRM 3.2 verbatim (`$small`, the block in dynamic group memory):
/// out[gx * height + gy] = in[gy * width + gx] on a 16 x 16 matrix.
#[test]
fn prm_3_2_transpose_small() {
    let input = random_bytes(1024, 4);
    let inw = words(&input);
    let (width, height) = (16, 16);
    let mut out = vec![0u32; 256];
    for gy in 0..height {
        for gx in 0..width {
            out[gx * height + gy] = inw[gy * width + gx];
        }
    }
    let zeros = [0u8; 1024];
    for mcpu in TARGETS {
        let got = run(
            "prm_3_2_transpose_small.hsail",
            "&__OpenCL_matrixTranspose_kernel",
            ("16,16", "8,8"),
            &[
                Arg::Buf(&zeros),
                Arg::Buf(&input),
                Arg::Other("local=256"),
                Arg::Other("u32=16"),
                Arg::Other("u32=16"),
                Arg::Other("u32=8"),
            ],
            mcpu,
        );
        assert_eq!(words(&got[0]), out, "{mcpu}");
    }
}

/// `small_flat_atomics.hsail`: atomics on 32-bit flat (group and global)
/// and global addresses, vector accesses on 32-bit global addresses.
#[test]
fn small_flat_atomics_match_the_prm() {
    let input = random_bytes(2048, 5);
    let inw = words(&input);
    let mut out = vec![0u32; 1024];
    for i in 0..128 {
        let r = &mut out[8 * i..8 * i + 8];
        r[..3].copy_from_slice(&[64, 7, 0]);
        for k in 0..4 {
            r[4 + k] = inw[4 * i + 3 - k];
        }
    }
    let count = [(0..128).sum::<u32>(), 0, 0, 0];
    let (zeros, zeros16) = ([0u8; 4096], [0u8; 16]);
    for mcpu in TARGETS {
        let got = run(
            "small_flat_atomics.hsail",
            "&small_flat_atomics",
            ("128", "64"),
            &[Arg::Buf(&input), Arg::Buf(&zeros), Arg::Buf(&zeros16)],
            mcpu,
        );
        assert_eq!(words(&got[1]), out, "{mcpu}");
        assert_eq!(words(&got[2]), count, "{mcpu}: the flat atomic counter");
    }
}

/// A private segment past the small model's 16 MiB flat window is a
/// located error, not an address that silently aliases.
#[test]
fn a_private_segment_past_the_flat_window_is_a_located_error() {
    let dir = oracles::Scratch::new("finalize-small-private");
    let file = dir.path("big.hsail");
    std::fs::write(
        &file,
        "module &m:1:0:$full:$small:$default;\n\
         kernel &k()\n{\n    private_u32 %p[5000000];\n    st_private_u32 1, [%p];\n};\n",
    )
    .unwrap();
    let co = dir.path("big.co").display().to_string();
    let out = hsakit(&["finalize", &file.display().to_string(), "-o", &co]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("big.hsail:2:1") && err.contains("small machine model"),
        "{err}"
    );
}
