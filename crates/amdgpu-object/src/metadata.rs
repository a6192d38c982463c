//! Code object v3/v4/v5 metadata (AMDGPUUsage "Code Object V3/V4/V5
//! Metadata"): the msgpack map in the `NT_AMDGPU_METADATA` note.
//!
//! Typed serde structs declare their fields in sorted key order, which is
//! the order LLVM's msgpack writer emits map keys in, so
//! [`Metadata::to_msgpack`] (always `rmp_serde::to_vec_named`) reproduces
//! LLVM's bytes. [`to_yaml`] prints any msgpack value the way
//! `llvm-readelf --notes` shows it (LLVM's YAML output of a msgpack
//! document).

use std::fmt::{self, Write as _};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{Error, Result};

macro_rules! string_enum {
    (
        $(#[$m:meta])*
        $name:ident { $( $(#[$vm:meta])* $variant:ident = $s:literal, )* }
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vm])* #[doc = concat!("`", $s, "`")] $variant, )*
            /// A value this crate does not know; kept verbatim.
            Other(String),
        }

        impl $name {
            /// The metadata string.
            pub fn as_str(&self) -> &str {
                match self {
                    $( $name::$variant => $s, )*
                    $name::Other(s) => s,
                }
            }

            /// From the metadata string.
            pub fn parse(s: &str) -> $name {
                match s {
                    $( $s => $name::$variant, )*
                    other => $name::Other(other.to_string()),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                Ok($name::parse(&s))
            }
        }
    };
}

string_enum! {
    /// `.value_kind` of a kernel argument (v3 table plus the v5 additions).
    ValueKind {
        ByValue = "by_value",
        GlobalBuffer = "global_buffer",
        DynamicSharedPointer = "dynamic_shared_pointer",
        Sampler = "sampler",
        Image = "image",
        Pipe = "pipe",
        Queue = "queue",
        HiddenGlobalOffsetX = "hidden_global_offset_x",
        HiddenGlobalOffsetY = "hidden_global_offset_y",
        HiddenGlobalOffsetZ = "hidden_global_offset_z",
        HiddenNone = "hidden_none",
        HiddenPrintfBuffer = "hidden_printf_buffer",
        HiddenHostcallBuffer = "hidden_hostcall_buffer",
        HiddenDefaultQueue = "hidden_default_queue",
        HiddenCompletionAction = "hidden_completion_action",
        HiddenMultigridSyncArg = "hidden_multigrid_sync_arg",
        HiddenBlockCountX = "hidden_block_count_x",
        HiddenBlockCountY = "hidden_block_count_y",
        HiddenBlockCountZ = "hidden_block_count_z",
        HiddenGroupSizeX = "hidden_group_size_x",
        HiddenGroupSizeY = "hidden_group_size_y",
        HiddenGroupSizeZ = "hidden_group_size_z",
        HiddenRemainderX = "hidden_remainder_x",
        HiddenRemainderY = "hidden_remainder_y",
        HiddenRemainderZ = "hidden_remainder_z",
        HiddenGridDims = "hidden_grid_dims",
        HiddenHeapV1 = "hidden_heap_v1",
        HiddenDynamicLdsSize = "hidden_dynamic_lds_size",
        HiddenPrivateBase = "hidden_private_base",
        HiddenSharedBase = "hidden_shared_base",
        HiddenQueuePtr = "hidden_queue_ptr",
    }
}

impl ValueKind {
    /// Hidden arguments are set up by the runtime, not the caller.
    pub fn is_hidden(&self) -> bool {
        self.as_str().starts_with("hidden_")
    }
}

string_enum! {
    /// `.address_space` of a pointer argument.
    AddressSpace {
        Private = "private",
        Global = "global",
        Constant = "constant",
        Local = "local",
        Generic = "generic",
        Region = "region",
    }
}

string_enum! {
    /// `.access` / `.actual_access` qualifier.
    Access {
        ReadOnly = "read_only",
        WriteOnly = "write_only",
        ReadWrite = "read_write",
    }
}

string_enum! {
    /// `.kind` of a kernel.
    KernelKind {
        Normal = "normal",
        Init = "init",
        Fini = "fini",
    }
}

/// One kernel argument (`.args` entry). Fields are in LLVM's key order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelArg {
    /// `.access`
    #[serde(rename = ".access", default, skip_serializing_if = "Option::is_none")]
    pub access: Option<Access>,
    /// `.actual_access`
    #[serde(
        rename = ".actual_access",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub actual_access: Option<Access>,
    /// `.address_space`
    #[serde(
        rename = ".address_space",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub address_space: Option<AddressSpace>,
    /// `.is_const`
    #[serde(rename = ".is_const", default, skip_serializing_if = "Option::is_none")]
    pub is_const: Option<bool>,
    /// `.is_pipe`
    #[serde(rename = ".is_pipe", default, skip_serializing_if = "Option::is_none")]
    pub is_pipe: Option<bool>,
    /// `.is_restrict`
    #[serde(
        rename = ".is_restrict",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub is_restrict: Option<bool>,
    /// `.is_volatile`
    #[serde(
        rename = ".is_volatile",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub is_volatile: Option<bool>,
    /// `.name`
    #[serde(rename = ".name", default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `.offset` in the kernarg segment (required).
    #[serde(rename = ".offset")]
    pub offset: u64,
    /// `.pointee_align` (dynamic_shared_pointer only).
    #[serde(
        rename = ".pointee_align",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub pointee_align: Option<u64>,
    /// `.size` in bytes (required).
    #[serde(rename = ".size")]
    pub size: u64,
    /// `.type_name`
    #[serde(
        rename = ".type_name",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub type_name: Option<String>,
    /// `.value_kind` (required).
    #[serde(rename = ".value_kind")]
    pub value_kind: ValueKind,
    /// `.value_type` (deprecated, accepted for compatibility).
    #[serde(
        rename = ".value_type",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub value_type: Option<String>,
}

impl KernelArg {
    /// An argument with only the required keys.
    pub fn new(value_kind: ValueKind, offset: u64, size: u64) -> KernelArg {
        KernelArg {
            access: None,
            actual_access: None,
            address_space: None,
            is_const: None,
            is_pipe: None,
            is_restrict: None,
            is_volatile: None,
            name: None,
            offset,
            pointee_align: None,
            size,
            type_name: None,
            value_kind,
            value_type: None,
        }
    }
}

/// One kernel (`amdhsa.kernels` entry). Fields are in LLVM's key order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kernel {
    /// `.agpr_count` (v4+ in practice; required by LLVM's verifier for gfx90a).
    #[serde(
        rename = ".agpr_count",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub agpr_count: Option<u64>,
    /// `.args`
    #[serde(rename = ".args", default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<KernelArg>>,
    /// `.device_enqueue_symbol`
    #[serde(
        rename = ".device_enqueue_symbol",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub device_enqueue_symbol: Option<String>,
    /// `.group_segment_fixed_size`
    #[serde(rename = ".group_segment_fixed_size")]
    pub group_segment_fixed_size: u64,
    /// `.kernarg_segment_align`
    #[serde(rename = ".kernarg_segment_align")]
    pub kernarg_segment_align: u64,
    /// `.kernarg_segment_size`
    #[serde(rename = ".kernarg_segment_size")]
    pub kernarg_segment_size: u64,
    /// `.kind`
    #[serde(rename = ".kind", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<KernelKind>,
    /// `.language`
    #[serde(rename = ".language", default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// `.language_version`
    #[serde(
        rename = ".language_version",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub language_version: Option<Vec<u64>>,
    /// `.max_flat_workgroup_size`
    #[serde(rename = ".max_flat_workgroup_size")]
    pub max_flat_workgroup_size: u64,
    /// `.max_num_workgroups_x`
    #[serde(
        rename = ".max_num_workgroups_x",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub max_num_workgroups_x: Option<u64>,
    /// `.max_num_workgroups_y`
    #[serde(
        rename = ".max_num_workgroups_y",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub max_num_workgroups_y: Option<u64>,
    /// `.max_num_workgroups_z`
    #[serde(
        rename = ".max_num_workgroups_z",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub max_num_workgroups_z: Option<u64>,
    /// `.name`: source name.
    #[serde(rename = ".name")]
    pub name: String,
    /// `.private_segment_fixed_size`
    #[serde(rename = ".private_segment_fixed_size")]
    pub private_segment_fixed_size: u64,
    /// `.reqd_workgroup_size`
    #[serde(
        rename = ".reqd_workgroup_size",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub reqd_workgroup_size: Option<Vec<u64>>,
    /// `.sgpr_count`
    #[serde(rename = ".sgpr_count")]
    pub sgpr_count: u64,
    /// `.sgpr_spill_count`
    #[serde(
        rename = ".sgpr_spill_count",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub sgpr_spill_count: Option<u64>,
    /// `.symbol`: the kernel descriptor symbol (`name.kd`).
    #[serde(rename = ".symbol")]
    pub symbol: String,
    /// `.uniform_work_group_size` (v5)
    #[serde(
        rename = ".uniform_work_group_size",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub uniform_work_group_size: Option<u64>,
    /// `.uses_dynamic_stack` (v5)
    #[serde(
        rename = ".uses_dynamic_stack",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub uses_dynamic_stack: Option<bool>,
    /// `.vec_type_hint`
    #[serde(
        rename = ".vec_type_hint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub vec_type_hint: Option<String>,
    /// `.vgpr_count`
    #[serde(rename = ".vgpr_count")]
    pub vgpr_count: u64,
    /// `.vgpr_spill_count`
    #[serde(
        rename = ".vgpr_spill_count",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub vgpr_spill_count: Option<u64>,
    /// `.wavefront_size`
    #[serde(rename = ".wavefront_size")]
    pub wavefront_size: u64,
    /// `.workgroup_processor_mode` (v5, GFX10+)
    #[serde(
        rename = ".workgroup_processor_mode",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub workgroup_processor_mode: Option<u64>,
    /// `.workgroup_size_hint`
    #[serde(
        rename = ".workgroup_size_hint",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub workgroup_size_hint: Option<Vec<u64>>,
}

impl Kernel {
    /// The arguments (empty if `.args` is absent).
    pub fn args(&self) -> &[KernelArg] {
        self.args.as_deref().unwrap_or(&[])
    }

    /// The hidden argument of `kind`, if the kernel has one.
    pub fn hidden_arg(&self, kind: &ValueKind) -> Option<&KernelArg> {
        self.args().iter().find(|a| &a.value_kind == kind)
    }
}

/// The whole v3+ metadata map. Fields are in LLVM's key order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metadata {
    /// `amdhsa.kernels`
    #[serde(rename = "amdhsa.kernels")]
    pub kernels: Vec<Kernel>,
    /// `amdhsa.printf`: encoded printf format strings.
    #[serde(
        rename = "amdhsa.printf",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub printf: Option<Vec<String>>,
    /// `amdhsa.target` (v4+): `amdgcn-amd-amdhsa--<target-id>`.
    #[serde(
        rename = "amdhsa.target",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub target: Option<String>,
    /// `amdhsa.version`: `[1, 0]` v3, `[1, 1]` v4, `[1, 2]` v5, `[1, 3]` v6.
    #[serde(rename = "amdhsa.version")]
    pub version: Vec<u64>,
}

impl Metadata {
    /// Decodes the msgpack descriptor of an `NT_AMDGPU_METADATA` note;
    /// `offset` (of the descriptor in the file) goes into errors.
    pub fn from_msgpack(bytes: &[u8], offset: u64) -> Result<Metadata> {
        rmp_serde::from_slice(bytes).map_err(|e| Error::Metadata {
            what: e.to_string(),
            offset,
        })
    }

    /// Encodes as LLVM does (maps with keys in sorted order).
    pub fn to_msgpack(&self) -> Vec<u8> {
        rmp_serde::to_vec_named(self).expect("metadata always serializes")
    }

    /// The code object version implied by `amdhsa.version`.
    pub fn code_object_version(&self) -> Option<u32> {
        match self.version.as_slice() {
            [1, minor] => u32::try_from(*minor).ok().map(|m| m + 3),
            _ => None,
        }
    }

    /// `amdhsa.version` for a code object version (3..=6).
    pub fn version_for(code_object_version: u32) -> Vec<u64> {
        vec![1, u64::from(code_object_version.saturating_sub(3))]
    }

    /// The kernel whose `.symbol` is `symbol` or whose `.name` is `name`.
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels
            .iter()
            .find(|k| k.name == name || k.symbol.strip_suffix(".kd") == Some(name))
    }

    /// Prints as `llvm-readelf --notes` does (see [`to_yaml`]).
    pub fn to_yaml(&self) -> String {
        let value = rmpv::decode::read_value(&mut self.to_msgpack().as_slice())
            .expect("our own msgpack decodes");
        to_yaml(&value)
    }
}

/// Decodes any msgpack document (for printing notes whose shape we do not
/// model).
pub fn decode_value(bytes: &[u8], offset: u64) -> Result<rmpv::Value> {
    let mut rd = bytes;
    let v = rmpv::decode::read_value(&mut rd).map_err(|e| Error::Metadata {
        what: e.to_string(),
        offset,
    })?;
    if !rd.is_empty() {
        let at = offset + (bytes.len() - rd.len()) as u64;
        return Err(Error::Metadata {
            what: "trailing bytes after msgpack document".into(),
            offset: at,
        });
    }
    Ok(v)
}

/// Prints a msgpack document as LLVM's `msgpack::Document::toYAML` does
/// (what `llvm-readelf --notes` shows under "AMDGPU Metadata:"): starting
/// with `---` and ending with `...`, keys padded to 16 columns, nested
/// sequences indented by two.
pub fn to_yaml(value: &rmpv::Value) -> String {
    let mut out = String::from("---\n");
    match value {
        rmpv::Value::Map(m) if !m.is_empty() => yaml_map(&mut out, m, 0, false),
        rmpv::Value::Array(a) if !a.is_empty() => yaml_seq(&mut out, a, 0, false),
        other => {
            out.pop();
            out.push(' ');
            out.push_str(&yaml_scalar(other));
            out.push('\n');
        }
    }
    out.push_str("...\n");
    out
}

fn indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// `first_inline`: the first key goes right after an already-written "- ".
fn yaml_map(out: &mut String, m: &[(rmpv::Value, rmpv::Value)], ind: usize, first_inline: bool) {
    for (i, (k, v)) in m.iter().enumerate() {
        if !(i == 0 && first_inline) {
            indent(out, ind);
        }
        let key = yaml_scalar(k);
        out.push_str(&key);
        out.push(':');
        match v {
            rmpv::Value::Map(mm) if !mm.is_empty() => {
                out.push('\n');
                yaml_map(out, mm, ind + 2, false);
            }
            rmpv::Value::Array(a) if !a.is_empty() => {
                out.push('\n');
                yaml_seq(out, a, ind + 2, false);
            }
            _ => {
                let pad = if key.len() < 16 { 16 - key.len() } else { 1 };
                indent(out, pad);
                out.push_str(&yaml_scalar(v));
                out.push('\n');
            }
        }
    }
}

fn yaml_seq(out: &mut String, a: &[rmpv::Value], ind: usize, first_inline: bool) {
    for (i, v) in a.iter().enumerate() {
        if !(i == 0 && first_inline) {
            indent(out, ind);
        }
        out.push_str("- ");
        match v {
            rmpv::Value::Map(mm) if !mm.is_empty() => yaml_map(out, mm, ind + 2, true),
            rmpv::Value::Array(aa) if !aa.is_empty() => yaml_seq(out, aa, ind + 2, true),
            _ => {
                out.push_str(&yaml_scalar(v));
                out.push('\n');
            }
        }
    }
}

fn yaml_scalar(v: &rmpv::Value) -> String {
    match v {
        rmpv::Value::Nil => "null".into(),
        rmpv::Value::Boolean(b) => b.to_string(),
        rmpv::Value::Integer(i) => i.to_string(),
        rmpv::Value::F32(f) => f.to_string(),
        rmpv::Value::F64(f) => f.to_string(),
        rmpv::Value::String(s) => match s.as_str() {
            Some(s) => quote(s),
            None => quote(&String::from_utf8_lossy(s.as_bytes())),
        },
        rmpv::Value::Binary(b) => {
            let mut s = String::from("!!binary '");
            for byte in b {
                let _ = write!(s, "{byte:02x}");
            }
            s.push('\'');
            s
        }
        rmpv::Value::Map(_) => "{}".into(),
        rmpv::Value::Array(_) => "[]".into(),
        rmpv::Value::Ext(t, _) => format!("!ext{t}"),
    }
}

#[derive(PartialEq, PartialOrd)]
enum Quoting {
    None,
    Single,
    Double,
}

/// LLVM YAML I/O's `needsQuotes`.
fn quoting(s: &str) -> Quoting {
    if s.is_empty() {
        return Quoting::Single;
    }
    let b = s.as_bytes();
    let is_space = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    if is_space(b[0]) || is_space(b[b.len() - 1]) {
        return Quoting::Single;
    }
    if matches!(s, "null" | "Null" | "NULL" | "~")
        || matches!(s, "true" | "True" | "TRUE" | "false" | "False" | "FALSE")
        || is_numeric(s)
    {
        return Quoting::Single;
    }
    let mut need = Quoting::None;
    if br#"-?:\,[]{}#&*!|>'"%@`"#.contains(&b[0]) {
        need = Quoting::Single;
    }
    for &c in b {
        if c.is_ascii_alphanumeric() {
            continue;
        }
        match c {
            b'_' | b'-' | b'^' | b'.' | b',' | b' ' | b'\t' => {}
            b'\n' | b'\r' => need = Quoting::Single,
            0x7f => return Quoting::Double,
            _ if c <= 0x1f || c >= 0x80 => return Quoting::Double,
            _ => need = Quoting::Single,
        }
    }
    need
}

/// LLVM YAML's `isNumeric`: YAML 1.2 core schema ints and floats.
fn is_numeric(s: &str) -> bool {
    let b = s.as_bytes();
    let body = match b.first() {
        Some(b'+' | b'-') => &s[1..],
        _ => s,
    };
    if matches!(body, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let all = |t: &str, f: fn(u8) -> bool| !t.is_empty() && t.bytes().all(f);
    if let Some(h) = s.strip_prefix("0x") {
        return all(h, |c| c.is_ascii_hexdigit());
    }
    if let Some(o) = s.strip_prefix("0o") {
        return all(o, |c| (b'0'..=b'7').contains(&c));
    }
    // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
    let t = body.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < t.len() && t[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    let int_digits = digits(&mut i);
    let mut frac_digits = 0;
    if i < t.len() && t[i] == b'.' {
        i += 1;
        frac_digits = digits(&mut i);
    }
    if int_digits == 0 && frac_digits == 0 {
        return false;
    }
    if i < t.len() && (t[i] == b'e' || t[i] == b'E') {
        i += 1;
        if i < t.len() && (t[i] == b'+' || t[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == t.len()
}

fn quote(s: &str) -> String {
    match quoting(s) {
        Quoting::None => s.to_string(),
        Quoting::Single => format!("'{}'", s.replace('\'', "''")),
        Quoting::Double => {
            let mut out = String::from("\"");
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\t' => out.push_str("\\t"),
                    '\r' => out.push_str("\\r"),
                    c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                        let _ = write!(out, "\\x{:02X}", c as u32);
                    }
                    c => out.push(c),
                }
            }
            out.push('"');
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_follows_llvm_yaml() {
        assert_eq!(quote("float*"), "'float*'");
        assert_eq!(quote("OpenCL C"), "OpenCL C");
        assert_eq!(
            quote("amdgcn-amd-amdhsa--gfx90a:xnack+"),
            "'amdgcn-amd-amdhsa--gfx90a:xnack+'"
        );
        assert_eq!(quote("add.kd"), "add.kd");
        assert_eq!(quote("123"), "'123'");
        assert_eq!(quote("true"), "'true'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("it's"), "'it''s'");
    }
}
