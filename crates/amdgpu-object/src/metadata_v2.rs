//! Code object v2 metadata (AMDGPUUsage "Code Object V2 Metadata"): the
//! YAML text in the `NT_AMD_HSA_METADATA` note ("AMD" namespace), and the
//! v2 ISA note's mapping to processors. Read-only: LLVM 19 no longer writes
//! code object v2. Parsed with `serde-saphyr`.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::target::{Processor, Setting, TargetId};

/// One kernel argument (`Args` entry).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct KernelArgV2 {
    /// `Name`
    pub name: Option<String>,
    /// `TypeName`
    pub type_name: Option<String>,
    /// `Size` (required).
    pub size: u64,
    /// `Align` (required).
    pub align: u64,
    /// `ValueKind` (required): `ByValue`, `GlobalBuffer`, `HiddenGlobalOffsetX`, …
    pub value_kind: String,
    /// `ValueType` (unused, deprecated).
    pub value_type: Option<String>,
    /// `PointeeAlign`
    pub pointee_align: Option<u64>,
    /// `AddrSpaceQual`: `Private`, `Global`, `Constant`, `Local`, `Generic`, `Region`.
    pub addr_space_qual: Option<String>,
    /// `AccQual`: `Default`, `ReadOnly`, `WriteOnly`, `ReadWrite`.
    pub acc_qual: Option<String>,
    /// `ActualAccQual`
    pub actual_acc_qual: Option<String>,
    /// `IsConst`
    pub is_const: Option<bool>,
    /// `IsRestrict`
    pub is_restrict: Option<bool>,
    /// `IsVolatile`
    pub is_volatile: Option<bool>,
    /// `IsPipe`
    pub is_pipe: Option<bool>,
}

/// `CodeProps` of a kernel.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CodePropsV2 {
    /// `KernargSegmentSize`
    #[serde(rename = "KernargSegmentSize")]
    pub kernarg_segment_size: u64,
    /// `GroupSegmentFixedSize`
    #[serde(rename = "GroupSegmentFixedSize")]
    pub group_segment_fixed_size: u64,
    /// `PrivateSegmentFixedSize`
    #[serde(rename = "PrivateSegmentFixedSize")]
    pub private_segment_fixed_size: u64,
    /// `KernargSegmentAlign`
    #[serde(rename = "KernargSegmentAlign")]
    pub kernarg_segment_align: u64,
    /// `WavefrontSize`
    #[serde(rename = "WavefrontSize")]
    pub wavefront_size: u64,
    /// `NumSGPRs`
    #[serde(rename = "NumSGPRs")]
    pub num_sgprs: u64,
    /// `NumVGPRs`
    #[serde(rename = "NumVGPRs")]
    pub num_vgprs: u64,
    /// `MaxFlatWorkGroupSize`
    #[serde(rename = "MaxFlatWorkGroupSize")]
    pub max_flat_work_group_size: u64,
    /// `IsDynamicCallStack`
    #[serde(rename = "IsDynamicCallStack")]
    pub is_dynamic_call_stack: Option<bool>,
    /// `IsXNACKEnabled`
    #[serde(rename = "IsXNACKEnabled")]
    pub is_xnack_enabled: Option<bool>,
    /// `NumSpilledSGPRs`
    #[serde(rename = "NumSpilledSGPRs")]
    pub num_spilled_sgprs: Option<u64>,
    /// `NumSpilledVGPRs`
    #[serde(rename = "NumSpilledVGPRs")]
    pub num_spilled_vgprs: Option<u64>,
}

/// `Attrs` of a kernel.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct AttrsV2 {
    /// `ReqdWorkGroupSize`
    pub reqd_work_group_size: Option<Vec<u64>>,
    /// `WorkGroupSizeHint`
    pub work_group_size_hint: Option<Vec<u64>>,
    /// `VecTypeHint`
    pub vec_type_hint: Option<String>,
    /// `RuntimeHandle`
    pub runtime_handle: Option<String>,
}

/// One kernel (`Kernels` entry).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct KernelV2 {
    /// `Name` (required).
    pub name: String,
    /// `SymbolName` (required).
    pub symbol_name: String,
    /// `Language`
    pub language: Option<String>,
    /// `LanguageVersion`
    pub language_version: Option<Vec<u64>>,
    /// `Attrs`
    pub attrs: Option<AttrsV2>,
    /// `Args`
    pub args: Vec<KernelArgV2>,
    /// `CodeProps`
    pub code_props: Option<CodePropsV2>,
}

/// The whole v2 metadata document.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct MetadataV2 {
    /// `Version`: `[1, 0]`.
    pub version: Vec<u64>,
    /// `Printf`
    pub printf: Option<Vec<String>>,
    /// `Kernels`
    pub kernels: Vec<KernelV2>,
}

impl MetadataV2 {
    /// Parses the note's YAML text; `offset` (of the note descriptor) goes
    /// into errors, with the YAML line and column when known.
    pub fn from_yaml(text: &str, offset: u64) -> Result<MetadataV2> {
        serde_saphyr::from_str(text).map_err(|e| {
            let at = e
                .location()
                .map(|l| format!(" (line {}, column {})", l.line(), l.column()));
            Error::Metadata {
                what: format!("v2 YAML: {e}{}", at.unwrap_or_default()),
                offset,
            }
        })
    }
}

/// The target of a v2 `NT_AMD_HSA_ISA_VERSION` note (major, minor,
/// stepping), per AMDGPUUsage's "Code Object V2 Supported Processors and
/// Fixed Target Feature Settings" table; `None` if not in the table.
pub fn isa_version_target(major: u32, minor: u32, stepping: u32) -> Option<TargetId> {
    use Setting::{Off, On};
    let (name, sramecc, xnack) = match (major, minor, stepping) {
        (6, 0, 0) => ("gfx600", None, None),
        (6, 0, 1) => ("gfx601", None, None),
        (6, 0, 2) => ("gfx602", None, None),
        (7, 0, 0) => ("gfx700", None, None),
        (7, 0, 1) => ("gfx701", None, None),
        (7, 0, 2) => ("gfx702", None, None),
        (7, 0, 3) => ("gfx703", None, None),
        (7, 0, 4) => ("gfx704", None, None),
        (7, 0, 5) => ("gfx705", None, None),
        (8, 0, 0) | (8, 0, 2) => ("gfx802", None, None),
        (8, 0, 1) => ("gfx801", None, Some(On)),
        (8, 0, 3) | (8, 0, 4) => ("gfx803", None, None),
        (8, 0, 5) => ("gfx805", None, None),
        (8, 1, 0) => ("gfx810", None, Some(On)),
        (9, 0, 0) => ("gfx900", None, Some(Off)),
        (9, 0, 1) => ("gfx900", None, Some(On)),
        (9, 0, 2) => ("gfx902", None, Some(Off)),
        (9, 0, 3) => ("gfx902", None, Some(On)),
        (9, 0, 4) => ("gfx904", None, Some(Off)),
        (9, 0, 5) => ("gfx904", None, Some(On)),
        (9, 0, 6) => ("gfx906", Some(Off), Some(Off)),
        (9, 0, 7) => ("gfx906", Some(Off), Some(On)),
        (9, 0, 12) => ("gfx90c", None, Some(Off)),
        _ => return None,
    };
    let mut id = TargetId::new(Processor::from_name(name)?);
    if let Some(s) = sramecc {
        id.sramecc = Some(s);
    }
    if let Some(x) = xnack {
        id.xnack = Some(x);
    }
    Some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example shape of AMDGPUUsage's v2 metadata tables.
    #[test]
    fn parses_v2_yaml() {
        let text = "---\nVersion: [ 1, 0 ]\nKernels:\n  - Name: test\n    SymbolName: 'test@kd'\n    Language: OpenCL C\n    LanguageVersion: [ 2, 0 ]\n    Args:\n      - Name: a\n        TypeName: 'int*'\n        Size: 8\n        Align: 8\n        ValueKind: GlobalBuffer\n        AddrSpaceQual: Global\n      - Size: 8\n        Align: 8\n        ValueKind: HiddenGlobalOffsetX\n    CodeProps:\n      KernargSegmentSize: 16\n      GroupSegmentFixedSize: 0\n      PrivateSegmentFixedSize: 0\n      KernargSegmentAlign: 8\n      WavefrontSize: 64\n      NumSGPRs: 8\n      NumVGPRs: 4\n      MaxFlatWorkGroupSize: 256\n...\n";
        let m = MetadataV2::from_yaml(text, 0).unwrap();
        assert_eq!(m.version, [1, 0]);
        let k = &m.kernels[0];
        assert_eq!(
            (k.name.as_str(), k.symbol_name.as_str()),
            ("test", "test@kd")
        );
        assert_eq!(k.args[1].value_kind, "HiddenGlobalOffsetX");
        assert_eq!(k.code_props.as_ref().unwrap().num_vgprs, 4);
        let bad = MetadataV2::from_yaml("Kernels: [ { Name: 3", 0x40).unwrap_err();
        assert_eq!(bad.offset(), Some(0x40));
    }

    #[test]
    fn v2_isa_table() {
        assert_eq!(
            isa_version_target(9, 0, 1).unwrap().short(),
            "gfx900:xnack+"
        );
        assert_eq!(
            isa_version_target(9, 0, 6).unwrap().short(),
            "gfx906:sramecc-:xnack-"
        );
        assert_eq!(isa_version_target(8, 0, 4).unwrap().short(), "gfx803");
        assert!(isa_version_target(10, 1, 0).is_none());
    }
}

/// `NT_AMD_HSA_ISA_VERSION` (`amdgpu_hsa_note_isa_s`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IsaNote {
    /// Vendor name (`AMD`).
    pub vendor: String,
    /// Architecture name (`AMDGPU`).
    pub architecture: String,
    /// GFXIP major.
    pub major: u32,
    /// GFXIP minor.
    pub minor: u32,
    /// Stepping.
    pub stepping: u32,
}

/// `NT_AMD_HSA_HSAIL` (`amdgpu_hsa_note_hsail_s`), written by the HSAIL finalizer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HsailNote {
    /// HSAIL major version.
    pub hsail_major_version: u32,
    /// HSAIL minor version.
    pub hsail_minor_version: u32,
    /// Profile (0 base, 1 full).
    pub profile: u8,
    /// Machine model (0 small, 1 large).
    pub machine_model: u8,
    /// Default float rounding.
    pub default_float_round: u8,
}

/// The code object v2 notes in the "AMD" namespace (AMDGPUUsage "Code
/// Object V2 Note Records").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct V2Notes {
    /// `NT_AMD_HSA_CODE_OBJECT_VERSION`: (major, minor).
    pub code_object_version: Option<(u32, u32)>,
    /// `NT_AMD_HSA_HSAIL`.
    pub hsail: Option<HsailNote>,
    /// `NT_AMD_HSA_ISA_VERSION`.
    pub isa: Option<IsaNote>,
    /// `NT_AMD_HSA_ISA_NAME` (not NUL-terminated).
    pub isa_name: Option<String>,
    /// `NT_AMD_HSA_METADATA`, parsed.
    pub metadata: Option<MetadataV2>,
}

fn need(desc: &[u8], n: usize, what: &'static str, offset: u64) -> Result<()> {
    if desc.len() < n {
        return Err(Error::Truncated {
            what,
            offset,
            needed: n as u64,
            available: desc.len() as u64,
        });
    }
    Ok(())
}

fn u32_le(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn c_string(b: &[u8], what: &str, offset: u64) -> Result<String> {
    let b = b.strip_suffix(&[0]).unwrap_or(b);
    String::from_utf8(b.to_vec())
        .map_err(|_| Error::malformed(format!("{what} is not UTF-8"), offset))
}

/// Decodes the "AMD" notes of a v2 code object.
pub fn decode_v2_notes(notes: &[crate::read::Note<'_>]) -> Result<V2Notes> {
    use crate::elf::{
        NT_AMD_HSA_CODE_OBJECT_VERSION, NT_AMD_HSA_HSAIL, NT_AMD_HSA_ISA_NAME,
        NT_AMD_HSA_ISA_VERSION, NT_AMD_HSA_METADATA,
    };
    let mut v = V2Notes::default();
    for n in notes.iter().filter(|n| n.name == "AMD") {
        let (d, at) = (n.desc, n.desc_offset);
        match n.n_type {
            NT_AMD_HSA_CODE_OBJECT_VERSION => {
                need(d, 8, "NT_AMD_HSA_CODE_OBJECT_VERSION", at)?;
                v.code_object_version = Some((u32_le(d, 0), u32_le(d, 4)));
            }
            NT_AMD_HSA_HSAIL => {
                need(d, 11, "NT_AMD_HSA_HSAIL", at)?;
                v.hsail = Some(HsailNote {
                    hsail_major_version: u32_le(d, 0),
                    hsail_minor_version: u32_le(d, 4),
                    profile: d[8],
                    machine_model: d[9],
                    default_float_round: d[10],
                });
            }
            NT_AMD_HSA_ISA_VERSION => {
                need(d, 16, "NT_AMD_HSA_ISA_VERSION", at)?;
                let vendor_size = usize::from(u16::from_le_bytes([d[0], d[1]]));
                let arch_size = usize::from(u16::from_le_bytes([d[2], d[3]]));
                need(
                    d,
                    16 + vendor_size + arch_size,
                    "NT_AMD_HSA_ISA_VERSION names",
                    at,
                )?;
                let names_at = at + 16;
                v.isa = Some(IsaNote {
                    vendor: c_string(&d[16..16 + vendor_size], "ISA vendor name", names_at)?,
                    architecture: c_string(
                        &d[16 + vendor_size..16 + vendor_size + arch_size],
                        "ISA architecture name",
                        names_at + vendor_size as u64,
                    )?,
                    major: u32_le(d, 4),
                    minor: u32_le(d, 8),
                    stepping: u32_le(d, 12),
                });
            }
            NT_AMD_HSA_ISA_NAME => v.isa_name = Some(c_string(d, "ISA name", at)?),
            NT_AMD_HSA_METADATA => {
                let text = d.strip_suffix(&[0]).unwrap_or(d);
                let text = std::str::from_utf8(text).map_err(|_| Error::Metadata {
                    what: "v2 metadata is not UTF-8".into(),
                    offset: at,
                })?;
                v.metadata = Some(MetadataV2::from_yaml(text, at)?);
            }
            _ => {}
        }
    }
    Ok(v)
}
