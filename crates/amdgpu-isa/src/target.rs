//! Target facts: every AMDGPU processor, its target features, and target IDs.
//!
//! The processor table follows AMDGPUUsage's "AMDGPU Processors" table and
//! "`EF_AMDGPU_MACH` Values" table (`/work/shared/spec/AMDGPUUsage.rst`).
//! Processors that table predates but LLVM 19 (the oracle) knows — gfx941,
//! gfx942, gfx1150–gfx1152, gfx1200/gfx1201 and the generic targets — are
//! added with the values LLVM 19 writes (checked by the oracle tests with
//! `llvm-readelf-19 -h`); [`Processor::in_spec_table`] says which is which.
//!
//! A [`TargetId`] is a processor plus the settings of the features a target
//! ID may carry (`sramecc`, `xnack`): `amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-`.
//! It converts to and from the ELF header `e_flags` of code objects V3 and
//! V4+ (`EF_AMDGPU_MACH` in bits 0–7, xnack in bits 8–9, sramecc in 10–11).

use std::fmt;

/// The two AMDGPU target triple architectures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arch {
    /// `r600`: Radeon HD 2000 to HD 6000; no HSA support.
    R600,
    /// `amdgcn`: GCN, CDNA and RDNA processors.
    Amdgcn,
}

/// The generation (family) a processor belongs to, as AMDGPUUsage groups them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Generation {
    /// Radeon HD 2000/3000 Series (R600).
    R600,
    /// Radeon HD 4000 Series (R700).
    R700,
    /// Radeon HD 5000 Series (Evergreen).
    Evergreen,
    /// Radeon HD 6000 Series (Northern Islands).
    NorthernIslands,
    /// GCN GFX6 (Southern Islands).
    Gfx6,
    /// GCN GFX7 (Sea Islands).
    Gfx7,
    /// GCN GFX8 (Volcanic Islands).
    Gfx8,
    /// GCN GFX9 (Vega, CDNA 1–3).
    Gfx9,
    /// GCN GFX10.1 (RDNA 1).
    Gfx10_1,
    /// GCN GFX10.3 (RDNA 2).
    Gfx10_3,
    /// GCN GFX11 (RDNA 3).
    Gfx11,
    /// GCN GFX12 (RDNA 4).
    Gfx12,
}

/// Whether a processor is a discrete GPU or part of an APU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Discrete GPU.
    Dgpu,
    /// Accelerated processing unit (GPU sharing memory with the CPU).
    Apu,
    /// A generic target (code that runs on several processors).
    Generic,
}

/// How private (scratch) memory is addressed by flat instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FlatScratch {
    /// No generic address space (GFX6, R600).
    None,
    /// Offset flat scratch (GFX7–GFX8).
    Offset,
    /// Absolute flat scratch (GFX9–GFX10).
    Absolute,
    /// Architected flat scratch (GFX940+, GFX11+).
    Architected,
}

/// A target feature named in AMDGPUUsage's "AMDGPU Target Features" table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Feature {
    /// CU (rather than WGP) wavefront execution mode (GFX10+).
    Cumode,
    /// SRAM ECC; may appear in a target ID.
    Sramecc,
    /// Threadgroup split mode (gfx90a, gfx94x).
    Tgsplit,
    /// Wavefront size 64 on processors whose native size is 32.
    Wavefrontsize64,
    /// XNACK replay; may appear in a target ID.
    Xnack,
}

impl Feature {
    /// Every feature, in alphabetical (canonical) order.
    pub const ALL: [Feature; 5] = [
        Feature::Cumode,
        Feature::Sramecc,
        Feature::Tgsplit,
        Feature::Wavefrontsize64,
        Feature::Xnack,
    ];

    /// The feature's name as written in target IDs and `-mattr`.
    pub fn name(self) -> &'static str {
        match self {
            Feature::Cumode => "cumode",
            Feature::Sramecc => "sramecc",
            Feature::Tgsplit => "tgsplit",
            Feature::Wavefrontsize64 => "wavefrontsize64",
            Feature::Xnack => "xnack",
        }
    }

    /// Looks a feature up by name.
    pub fn from_name(name: &str) -> Option<Feature> {
        Feature::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether the feature may be given in a target ID (controlled by
    /// `-mcpu`/`--offload-arch`); the others use `-m[no-]<feature>`.
    pub fn in_target_id(self) -> bool {
        matches!(self, Feature::Sramecc | Feature::Xnack)
    }

    /// The setting a feature has when nothing specifies it: `Any` for the
    /// target-ID features, `Off` for the others.
    pub fn default_setting(self) -> Setting {
        if self.in_target_id() {
            Setting::Any
        } else {
            Setting::Off
        }
    }
}

/// The setting of a target feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Setting {
    /// Not specified: code runs with either setting (code object V4+).
    Any,
    /// `feature-`.
    Off,
    /// `feature+`.
    On,
}

/// One AMDGPU processor: a row of AMDGPUUsage's processor table plus its
/// `EF_AMDGPU_MACH` value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Processor {
    /// Primary (canonical) name, e.g. `gfx90a`.
    pub name: &'static str,
    /// Alternative processor names, e.g. `tahiti` for `gfx600`.
    pub alt_names: &'static [&'static str],
    /// Target triple architecture.
    pub arch: Arch,
    /// Generation / family.
    pub generation: Generation,
    /// dGPU, APU or generic target.
    pub kind: Kind,
    /// Target features the processor supports, in alphabetical order.
    pub features: &'static [Feature],
    /// How flat instructions address scratch.
    pub flat_scratch: FlatScratch,
    /// Whether work-item IDs are packed into v0 (x | y<<10 | z<<20).
    pub packed_work_item_ids: bool,
    /// The `EF_AMDGPU_MACH_*` value (e_flags bits 0–7).
    pub mach: u8,
    /// Whether the row is in the AMDGPUUsage copy in `/work/shared/spec`
    /// (otherwise it was added from LLVM 19).
    pub in_spec_table: bool,
}

impl Processor {
    /// Whether the processor supports `feature`.
    pub fn supports(&self, feature: Feature) -> bool {
        self.features.contains(&feature)
    }

    /// Wavefront sizes the processor can run: `[64]` before GFX10, `[32, 64]`
    /// (native 32 first) from GFX10 on.
    pub fn wavefront_sizes(&self) -> &'static [u32] {
        if self.supports(Feature::Wavefrontsize64) {
            &[32, 64]
        } else {
            &[64]
        }
    }

    /// The `EF_AMDGPU_GENERIC_VERSION` a code object V6+ for this processor
    /// carries: 1 for every generic target of LLVM 19 (llvm-mc-19 writes
    /// `generic_v1` for all five), 0 for the others.
    pub fn generic_version(&self) -> u8 {
        u8::from(self.kind == Kind::Generic)
    }

    /// The default wavefront size (without `+wavefrontsize64`).
    pub fn default_wavefront_size(&self) -> u32 {
        self.wavefront_sizes()[0]
    }

    /// The `EF_AMDGPU_MACH_*` constant name, e.g. `EF_AMDGPU_MACH_AMDGCN_GFX90A`.
    pub fn mach_name(&self) -> String {
        let arch = match self.arch {
            Arch::R600 => "R600",
            Arch::Amdgcn => "AMDGCN",
        };
        let name = self.name.to_ascii_uppercase().replace('-', "_");
        format!("EF_AMDGPU_MACH_{arch}_{name}")
    }

    /// Looks a processor up by primary or alternative name.
    pub fn from_name(name: &str) -> Option<&'static Processor> {
        PROCESSORS
            .iter()
            .find(|p| p.name == name || p.alt_names.contains(&name))
    }

    /// Looks a processor up by its `EF_AMDGPU_MACH` value.
    pub fn from_mach(mach: u8) -> Option<&'static Processor> {
        PROCESSORS.iter().find(|p| p.mach == mach)
    }
}

impl fmt::Display for Processor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

use Feature::{Cumode, Sramecc, Tgsplit, Wavefrontsize64, Xnack};

const NONE: &[Feature] = &[];
const X: &[Feature] = &[Xnack];
const SX: &[Feature] = &[Sramecc, Xnack];
const STX: &[Feature] = &[Sramecc, Tgsplit, Xnack];
const CWX: &[Feature] = &[Cumode, Wavefrontsize64, Xnack];
const CW: &[Feature] = &[Cumode, Wavefrontsize64];

macro_rules! processors {
    ($( $name:literal [$($alt:literal),*] $arch:ident $generation:ident $kind:ident
        $features:ident $flat:ident $packed:literal $mach:literal $spec:literal; )*) => {
        /// Every processor, in the order of AMDGPUUsage's processor table
        /// (LLVM-19-only rows after their generation's rows).
        pub static PROCESSORS: &[Processor] = &[$(Processor {
            name: $name,
            alt_names: &[$($alt),*],
            arch: Arch::$arch,
            generation: Generation::$generation,
            kind: Kind::$kind,
            features: $features,
            flat_scratch: FlatScratch::$flat,
            packed_work_item_ids: $packed,
            mach: $mach,
            in_spec_table: $spec,
        }),*];
    };
}

processors! {
    "r600" [] R600 R600 Dgpu NONE None false 0x01 true;
    "r630" [] R600 R600 Dgpu NONE None false 0x02 true;
    "rs880" [] R600 R600 Dgpu NONE None false 0x03 true;
    "rv670" [] R600 R600 Dgpu NONE None false 0x04 true;
    "rv710" [] R600 R700 Dgpu NONE None false 0x05 true;
    "rv730" [] R600 R700 Dgpu NONE None false 0x06 true;
    "rv770" [] R600 R700 Dgpu NONE None false 0x07 true;
    "cedar" [] R600 Evergreen Dgpu NONE None false 0x08 true;
    "cypress" [] R600 Evergreen Dgpu NONE None false 0x09 true;
    "juniper" [] R600 Evergreen Dgpu NONE None false 0x0a true;
    "redwood" [] R600 Evergreen Dgpu NONE None false 0x0b true;
    "sumo" [] R600 Evergreen Dgpu NONE None false 0x0c true;
    "barts" [] R600 NorthernIslands Dgpu NONE None false 0x0d true;
    "caicos" [] R600 NorthernIslands Dgpu NONE None false 0x0e true;
    "cayman" [] R600 NorthernIslands Dgpu NONE None false 0x0f true;
    "turks" [] R600 NorthernIslands Dgpu NONE None false 0x10 true;
    "gfx600" ["tahiti"] Amdgcn Gfx6 Dgpu NONE None false 0x20 true;
    "gfx601" ["pitcairn", "verde"] Amdgcn Gfx6 Dgpu NONE None false 0x21 true;
    "gfx602" ["hainan", "oland"] Amdgcn Gfx6 Dgpu NONE None false 0x3a true;
    "gfx700" ["kaveri"] Amdgcn Gfx7 Apu NONE Offset false 0x22 true;
    "gfx701" ["hawaii"] Amdgcn Gfx7 Dgpu NONE Offset false 0x23 true;
    "gfx702" [] Amdgcn Gfx7 Dgpu NONE Offset false 0x24 true;
    "gfx703" ["kabini", "mullins"] Amdgcn Gfx7 Apu NONE Offset false 0x25 true;
    "gfx704" ["bonaire"] Amdgcn Gfx7 Dgpu NONE Offset false 0x26 true;
    "gfx705" [] Amdgcn Gfx7 Apu NONE Offset false 0x3b true;
    "gfx801" ["carrizo"] Amdgcn Gfx8 Apu X Offset false 0x28 true;
    "gfx802" ["iceland", "tonga"] Amdgcn Gfx8 Dgpu NONE Offset false 0x29 true;
    "gfx803" ["fiji", "polaris10", "polaris11"] Amdgcn Gfx8 Dgpu NONE Offset false 0x2a true;
    "gfx805" ["tongapro"] Amdgcn Gfx8 Dgpu NONE Offset false 0x3c true;
    "gfx810" ["stoney"] Amdgcn Gfx8 Apu X Offset false 0x2b true;
    "gfx900" [] Amdgcn Gfx9 Dgpu X Absolute false 0x2c true;
    "gfx902" [] Amdgcn Gfx9 Apu X Absolute false 0x2d true;
    "gfx904" [] Amdgcn Gfx9 Dgpu X Absolute false 0x2e true;
    "gfx906" [] Amdgcn Gfx9 Dgpu SX Absolute false 0x2f true;
    "gfx908" [] Amdgcn Gfx9 Dgpu SX Absolute false 0x30 true;
    "gfx909" [] Amdgcn Gfx9 Apu X Absolute false 0x31 true;
    "gfx90a" [] Amdgcn Gfx9 Dgpu STX Absolute true 0x3f true;
    "gfx90c" [] Amdgcn Gfx9 Apu X Absolute false 0x32 true;
    "gfx940" [] Amdgcn Gfx9 Dgpu STX Architected true 0x40 true;
    "gfx941" [] Amdgcn Gfx9 Dgpu STX Architected true 0x4b false;
    "gfx942" [] Amdgcn Gfx9 Dgpu STX Architected true 0x4c false;
    "gfx9-generic" [] Amdgcn Gfx9 Generic X Absolute false 0x51 false;
    "gfx1010" [] Amdgcn Gfx10_1 Dgpu CWX Absolute false 0x33 true;
    "gfx1011" [] Amdgcn Gfx10_1 Dgpu CWX Absolute false 0x34 true;
    "gfx1012" [] Amdgcn Gfx10_1 Dgpu CWX Absolute false 0x35 true;
    "gfx1013" [] Amdgcn Gfx10_1 Apu CWX Absolute false 0x42 true;
    "gfx10-1-generic" [] Amdgcn Gfx10_1 Generic CWX Absolute false 0x52 false;
    "gfx1030" [] Amdgcn Gfx10_3 Dgpu CW Absolute false 0x36 true;
    "gfx1031" [] Amdgcn Gfx10_3 Dgpu CW Absolute false 0x37 true;
    "gfx1032" [] Amdgcn Gfx10_3 Dgpu CW Absolute false 0x38 true;
    "gfx1033" [] Amdgcn Gfx10_3 Apu CW Absolute false 0x39 true;
    "gfx1034" [] Amdgcn Gfx10_3 Dgpu CW Absolute false 0x3e true;
    "gfx1035" [] Amdgcn Gfx10_3 Apu CW Absolute false 0x3d true;
    "gfx1036" [] Amdgcn Gfx10_3 Apu CW Absolute false 0x45 true;
    "gfx10-3-generic" [] Amdgcn Gfx10_3 Generic CW Absolute false 0x53 false;
    "gfx1100" [] Amdgcn Gfx11 Dgpu CW Architected true 0x41 true;
    "gfx1101" [] Amdgcn Gfx11 Dgpu CW Architected true 0x46 true;
    "gfx1102" [] Amdgcn Gfx11 Dgpu CW Architected true 0x47 true;
    "gfx1103" [] Amdgcn Gfx11 Apu CW Architected true 0x44 true;
    "gfx1150" [] Amdgcn Gfx11 Apu CW Architected true 0x43 false;
    "gfx1151" [] Amdgcn Gfx11 Apu CW Architected true 0x4a false;
    "gfx1152" [] Amdgcn Gfx11 Apu CW Architected true 0x55 false;
    "gfx11-generic" [] Amdgcn Gfx11 Generic CW Architected true 0x54 false;
    "gfx1200" [] Amdgcn Gfx12 Dgpu CW Architected true 0x48 false;
    "gfx1201" [] Amdgcn Gfx12 Dgpu CW Architected true 0x4e false;
    "gfx12-generic" [] Amdgcn Gfx12 Generic CW Architected true 0x59 false;
}

/// `EF_AMDGPU_MACH`: processor selection mask.
pub const EF_AMDGPU_MACH: u32 = 0x0ff;
/// `EF_AMDGPU_FEATURE_XNACK_V3`.
pub const EF_AMDGPU_FEATURE_XNACK_V3: u32 = 0x100;
/// `EF_AMDGPU_FEATURE_SRAMECC_V3`.
pub const EF_AMDGPU_FEATURE_SRAMECC_V3: u32 = 0x200;
/// `EF_AMDGPU_FEATURE_XNACK_V4`: xnack selection mask.
pub const EF_AMDGPU_FEATURE_XNACK_V4: u32 = 0x300;
/// `EF_AMDGPU_FEATURE_XNACK_UNSUPPORTED_V4`.
pub const EF_AMDGPU_FEATURE_XNACK_UNSUPPORTED_V4: u32 = 0x000;
/// `EF_AMDGPU_FEATURE_XNACK_ANY_V4`.
pub const EF_AMDGPU_FEATURE_XNACK_ANY_V4: u32 = 0x100;
/// `EF_AMDGPU_FEATURE_XNACK_OFF_V4`.
pub const EF_AMDGPU_FEATURE_XNACK_OFF_V4: u32 = 0x200;
/// `EF_AMDGPU_FEATURE_XNACK_ON_V4`.
pub const EF_AMDGPU_FEATURE_XNACK_ON_V4: u32 = 0x300;
/// `EF_AMDGPU_FEATURE_SRAMECC_V4`: sramecc selection mask.
pub const EF_AMDGPU_FEATURE_SRAMECC_V4: u32 = 0xc00;
/// `EF_AMDGPU_FEATURE_SRAMECC_UNSUPPORTED_V4`.
pub const EF_AMDGPU_FEATURE_SRAMECC_UNSUPPORTED_V4: u32 = 0x000;
/// `EF_AMDGPU_FEATURE_SRAMECC_ANY_V4`.
pub const EF_AMDGPU_FEATURE_SRAMECC_ANY_V4: u32 = 0x400;
/// `EF_AMDGPU_FEATURE_SRAMECC_OFF_V4`.
pub const EF_AMDGPU_FEATURE_SRAMECC_OFF_V4: u32 = 0x800;
/// `EF_AMDGPU_FEATURE_SRAMECC_ON_V4`.
pub const EF_AMDGPU_FEATURE_SRAMECC_ON_V4: u32 = 0xc00;
/// `EF_AMDGPU_GENERIC_VERSION` (code object V6, generic targets): bits 24–31.
pub const EF_AMDGPU_GENERIC_VERSION: u32 = 0xff00_0000;
/// Shift of [`EF_AMDGPU_GENERIC_VERSION`].
pub const EF_AMDGPU_GENERIC_VERSION_OFFSET: u32 = 24;

/// A target-ID or e_flags error. Messages name the column (1-based) in the
/// target-ID text, or the e_flags value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    /// The processor name is not in the processor table.
    #[error("unknown processor `{name}` at column {column}")]
    UnknownProcessor {
        /// The name as written.
        name: String,
        /// 1-based column.
        column: usize,
    },
    /// The feature name is not a target feature.
    #[error("unknown target feature `{name}` at column {column}")]
    UnknownFeature {
        /// The name as written.
        name: String,
        /// 1-based column.
        column: usize,
    },
    /// The feature exists but may not be given in a target ID.
    #[error(
        "target feature `{name}` cannot appear in a target ID (use -m[no-]{name}) at column {column}"
    )]
    NotATargetIdFeature {
        /// Feature name.
        name: &'static str,
        /// 1-based column.
        column: usize,
    },
    /// The processor does not support the feature.
    #[error(
        "processor `{processor}` does not support target feature `{feature}` at column {column}"
    )]
    UnsupportedFeature {
        /// Processor name.
        processor: &'static str,
        /// Feature name.
        feature: &'static str,
        /// 1-based column.
        column: usize,
    },
    /// A feature appears twice.
    #[error("target feature `{feature}` given twice at column {column}")]
    DuplicateFeature {
        /// Feature name.
        feature: &'static str,
        /// 1-based column.
        column: usize,
    },
    /// Feature without `+`/`-`, or other malformed text.
    #[error("malformed target ID: {reason} at column {column}")]
    Malformed {
        /// What is wrong.
        reason: &'static str,
        /// 1-based column.
        column: usize,
    },
    /// The triple is not an AMDGPU triple.
    #[error("unsupported target triple `{triple}` at column 1")]
    BadTriple {
        /// The triple as written.
        triple: String,
    },
    /// e_flags names no known processor.
    #[error("unknown EF_AMDGPU_MACH value {mach:#04x} in e_flags {flags:#x}")]
    UnknownMach {
        /// The mach field.
        mach: u8,
        /// The whole e_flags.
        flags: u32,
    },
    /// e_flags feature bits are inconsistent with the processor.
    #[error("e_flags {flags:#x}: {reason} for {processor}")]
    BadFeatureBits {
        /// The whole e_flags.
        flags: u32,
        /// Processor name.
        processor: &'static str,
        /// What is wrong.
        reason: &'static str,
    },
}

/// A processor and the settings of its target-ID features (`sramecc`,
/// `xnack`); a feature the processor does not support is `None`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TargetId {
    /// The processor.
    pub processor: &'static Processor,
    /// `sramecc` setting (None: unsupported).
    pub sramecc: Option<Setting>,
    /// `xnack` setting (None: unsupported).
    pub xnack: Option<Setting>,
    /// Generic code object version (e_flags bits 24–31, V6 generic targets);
    /// 0 when absent.
    pub generic_version: u8,
}

/// The triple used in full target IDs.
pub const AMDHSA_TRIPLE: &str = "amdgcn-amd-amdhsa";

impl TargetId {
    /// The target ID of `processor` with every supported feature `Any`.
    pub fn new(processor: &'static Processor) -> TargetId {
        let setting = |f| processor.supports(f).then_some(Setting::Any);
        TargetId {
            processor,
            sramecc: setting(Sramecc),
            xnack: setting(Xnack),
            generic_version: 0,
        }
    }

    /// Parses `gfx90a`, `gfx90a:xnack-`, `tahiti`,
    /// `amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-` (features in any order,
    /// each at most once; unspecified features are `Any`).
    pub fn parse(text: &str) -> Result<TargetId, TargetError> {
        let mut base = 0;
        let mut rest = text;
        if let Some(pos) = text.find("--") {
            let triple = &text[..pos];
            let parts: Vec<&str> = triple.split('-').collect();
            if parts.len() != 3 || parts[0] != "amdgcn" || parts[1] != "amd" {
                return Err(TargetError::BadTriple {
                    triple: triple.to_string(),
                });
            }
            base = pos + 2;
            rest = &text[base..];
        }
        let mut pieces = rest.split(':');
        let name = pieces.next().unwrap_or("");
        let processor =
            Processor::from_name(name).ok_or_else(|| TargetError::UnknownProcessor {
                name: name.to_string(),
                column: base + 1,
            })?;
        let mut id = TargetId::new(processor);
        let mut seen: Vec<Feature> = Vec::new();
        let mut col = base + name.len() + 1;
        for piece in pieces {
            let column = col + 1;
            col += piece.len() + 1;
            let (fname, setting) = match piece.as_bytes().last() {
                Some(b'+') => (&piece[..piece.len() - 1], Setting::On),
                Some(b'-') => (&piece[..piece.len() - 1], Setting::Off),
                _ => {
                    return Err(TargetError::Malformed {
                        reason: "feature must end in `+` or `-`",
                        column,
                    });
                }
            };
            let feature = Feature::from_name(fname).ok_or_else(|| TargetError::UnknownFeature {
                name: fname.to_string(),
                column,
            })?;
            if !feature.in_target_id() {
                return Err(TargetError::NotATargetIdFeature {
                    name: feature.name(),
                    column,
                });
            }
            if !processor.supports(feature) {
                return Err(TargetError::UnsupportedFeature {
                    processor: processor.name,
                    feature: feature.name(),
                    column,
                });
            }
            if seen.contains(&feature) {
                return Err(TargetError::DuplicateFeature {
                    feature: feature.name(),
                    column,
                });
            }
            seen.push(feature);
            match feature {
                Sramecc => id.sramecc = Some(setting),
                _ => id.xnack = Some(setting),
            }
        }
        Ok(id)
    }

    /// Sets a target-ID feature; errors if the processor lacks it.
    pub fn with(mut self, feature: Feature, setting: Setting) -> Result<TargetId, TargetError> {
        if !feature.in_target_id() {
            return Err(TargetError::NotATargetIdFeature {
                name: feature.name(),
                column: 0,
            });
        }
        if !self.processor.supports(feature) {
            return Err(TargetError::UnsupportedFeature {
                processor: self.processor.name,
                feature: feature.name(),
                column: 0,
            });
        }
        match feature {
            Sramecc => self.sramecc = Some(setting),
            _ => self.xnack = Some(setting),
        }
        Ok(self)
    }

    /// The canonical short form: `gfx90a:sramecc+:xnack-` (features in
    /// alphabetical order, `Any` omitted).
    pub fn short(&self) -> String {
        let mut s = self.processor.name.to_string();
        for (name, setting) in [("sramecc", self.sramecc), ("xnack", self.xnack)] {
            match setting {
                Some(Setting::On) => s.push_str(&format!(":{name}+")),
                Some(Setting::Off) => s.push_str(&format!(":{name}-")),
                _ => {}
            }
        }
        s
    }

    /// The target ID as a code object of `version` records it: from V6 on,
    /// a generic target carries its generic version (V4/V5 have none).
    pub fn for_code_object(mut self, version: u32) -> TargetId {
        self.generic_version = if version >= 6 {
            self.processor.generic_version()
        } else {
            0
        };
        self
    }

    /// The code object V4+ `e_flags` (mach, xnack bits 8–9, sramecc bits
    /// 10–11: 0 unsupported, 1 any, 2 off, 3 on; generic version 24–31).
    pub fn e_flags_v4(&self) -> u32 {
        let bits = |s: Option<Setting>| match s {
            None => 0,
            Some(Setting::Any) => 1,
            Some(Setting::Off) => 2,
            Some(Setting::On) => 3,
        };
        u32::from(self.processor.mach)
            | (bits(self.xnack) << 8)
            | (bits(self.sramecc) << 10)
            | (u32::from(self.generic_version) << EF_AMDGPU_GENERIC_VERSION_OFFSET)
    }

    /// The code object V3 `e_flags`: a feature bit is set when the feature is
    /// on or any (V3 cannot say "any").
    pub fn e_flags_v3(&self) -> u32 {
        let on = |s: Option<Setting>| matches!(s, Some(Setting::On | Setting::Any));
        let mut flags = u32::from(self.processor.mach);
        if on(self.xnack) {
            flags |= EF_AMDGPU_FEATURE_XNACK_V3;
        }
        if on(self.sramecc) {
            flags |= EF_AMDGPU_FEATURE_SRAMECC_V3;
        }
        flags
    }

    /// Decodes code object V4+ `e_flags`.
    pub fn from_e_flags_v4(flags: u32) -> Result<TargetId, TargetError> {
        let mach = (flags & EF_AMDGPU_MACH) as u8;
        let processor =
            Processor::from_mach(mach).ok_or(TargetError::UnknownMach { mach, flags })?;
        let bad = |reason| TargetError::BadFeatureBits {
            flags,
            processor: processor.name,
            reason,
        };
        if flags & !(EF_AMDGPU_MACH | 0xf00 | EF_AMDGPU_GENERIC_VERSION) != 0 {
            return Err(bad("unknown bits set"));
        }
        let setting = |feature, field: u32| match (processor.supports(feature), field) {
            (false, 0) => Ok(None),
            (false, _) => Err(bad("feature bits set for an unsupported feature")),
            (true, 0) => Err(bad("feature marked unsupported for a supporting processor")),
            (true, 1) => Ok(Some(Setting::Any)),
            (true, 2) => Ok(Some(Setting::Off)),
            (true, _) => Ok(Some(Setting::On)),
        };
        Ok(TargetId {
            processor,
            xnack: setting(Xnack, (flags >> 8) & 3)?,
            sramecc: setting(Sramecc, (flags >> 10) & 3)?,
            generic_version: (flags >> EF_AMDGPU_GENERIC_VERSION_OFFSET) as u8,
        })
    }
}

impl fmt::Display for TargetId {
    /// The canonical full form `amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-`
    /// (as llvm-mc prints in `.amdgcn_target`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{AMDHSA_TRIPLE}--{}", self.short())
    }
}

impl std::str::FromStr for TargetId {
    type Err = TargetError;
    fn from_str(s: &str) -> Result<TargetId, TargetError> {
        TargetId::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mach_values_from_amdgpuusage() {
        // Spot values from AMDGPUUsage's EF_AMDGPU_MACH table.
        for (name, mach) in [
            ("r600", 0x001),
            ("turks", 0x010),
            ("gfx600", 0x020),
            ("gfx602", 0x03a),
            ("gfx900", 0x02c),
            ("gfx906", 0x02f),
            ("gfx908", 0x030),
            ("gfx90c", 0x032),
            ("gfx90a", 0x03f),
            ("gfx940", 0x040),
            ("gfx1013", 0x042),
            ("gfx1030", 0x036),
            ("gfx1036", 0x045),
            ("gfx1100", 0x041),
            ("gfx1103", 0x044),
        ] {
            assert_eq!(Processor::from_name(name).unwrap().mach, mach, "{name}");
        }
        assert_eq!(
            Processor::from_name("gfx90a").unwrap().mach_name(),
            "EF_AMDGPU_MACH_AMDGCN_GFX90A"
        );
    }

    #[test]
    fn mach_values_unique_and_names_unique() {
        for (i, a) in PROCESSORS.iter().enumerate() {
            for b in &PROCESSORS[i + 1..] {
                assert_ne!(a.mach, b.mach, "{} {}", a.name, b.name);
                assert_ne!(a.name, b.name);
            }
        }
    }

    #[test]
    fn alternative_names() {
        assert_eq!(Processor::from_name("tahiti").unwrap().name, "gfx600");
        assert_eq!(Processor::from_name("polaris11").unwrap().name, "gfx803");
        assert_eq!(Processor::from_name("stoney").unwrap().name, "gfx810");
        let id = TargetId::parse("carrizo:xnack+").unwrap();
        assert_eq!(id.short(), "gfx801:xnack+");
    }

    #[test]
    fn parse_and_print() {
        let id = TargetId::parse("amdgcn-amd-amdhsa--gfx90a:xnack-:sramecc+").unwrap();
        assert_eq!(id.to_string(), "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-");
        assert_eq!(id.e_flags_v4(), 0xe3f);
        let id = TargetId::parse("gfx90a").unwrap();
        assert_eq!(id.sramecc, Some(Setting::Any));
        assert_eq!(id.xnack, Some(Setting::Any));
        assert_eq!(id.e_flags_v4(), 0x53f);
        let id = TargetId::parse("gfx1030").unwrap();
        assert_eq!(id.xnack, None);
        assert_eq!(id.e_flags_v4(), 0x36);
        assert_eq!(
            Processor::from_name("gfx1030").unwrap().wavefront_sizes(),
            &[32, 64]
        );
        assert_eq!(
            Processor::from_name("gfx90a").unwrap().wavefront_sizes(),
            &[64]
        );
    }

    #[test]
    fn parse_errors_carry_columns() {
        assert_eq!(
            TargetId::parse("gfx9000"),
            Err(TargetError::UnknownProcessor {
                name: "gfx9000".into(),
                column: 1
            })
        );
        assert_eq!(
            TargetId::parse("gfx900:sramecc+"),
            Err(TargetError::UnsupportedFeature {
                processor: "gfx900",
                feature: "sramecc",
                column: 8
            })
        );
        assert!(matches!(
            TargetId::parse("amdgcn-amd-amdhsa--gfx90a:xnack+:foo+"),
            Err(TargetError::UnknownFeature { column: 34, .. })
        ));
        assert!(matches!(
            TargetId::parse("gfx90a:xnack+:xnack-"),
            Err(TargetError::DuplicateFeature { column: 15, .. })
        ));
        assert!(matches!(
            TargetId::parse("gfx90a:tgsplit+"),
            Err(TargetError::NotATargetIdFeature { .. })
        ));
        assert!(matches!(
            TargetId::parse("gfx90a:xnack"),
            Err(TargetError::Malformed { column: 8, .. })
        ));
        assert!(matches!(
            TargetId::parse("x86_64-pc-linux--gfx90a"),
            Err(TargetError::BadTriple { .. })
        ));
    }

    #[test]
    fn e_flags_round_trip() {
        for p in PROCESSORS {
            let mut ids = vec![TargetId::new(p)];
            for f in [Sramecc, Xnack] {
                if p.supports(f) {
                    let more: Vec<_> = ids
                        .iter()
                        .flat_map(|id| {
                            [Setting::On, Setting::Off].map(|s| id.clone().with(f, s).unwrap())
                        })
                        .collect();
                    ids.extend(more);
                }
            }
            for id in ids {
                let flags = id.e_flags_v4();
                assert_eq!(TargetId::from_e_flags_v4(flags).unwrap(), id);
                assert_eq!(TargetId::parse(&id.to_string()).unwrap(), id);
            }
        }
        assert!(TargetId::from_e_flags_v4(0x2c).is_err()); // gfx900 supports xnack
        assert!(TargetId::from_e_flags_v4(0x536).is_err()); // gfx1030 has none
        assert!(TargetId::from_e_flags_v4(0xfe).is_err());
    }
}
