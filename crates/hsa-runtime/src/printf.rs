//! The OpenCL printf service of the AMDGPU runtime ABI (AMDGPUUsage
//! "printf buffer", LLVM's `AMDGPUPrintfRuntimeBinding`): a kernel whose
//! metadata lists `hidden_printf_buffer` gets the address of a buffer in
//! that argument. The buffer starts with two `u32`s — the bytes used so
//! far (the kernel's `__printf_alloc` advances it atomically) and the
//! buffer's total size — and records follow from byte 8. A record is a
//! `u32` format ID, then each argument's bytes, packed, as many as the
//! format's entry in the code object's `amdhsa.printf` metadata says.
//!
//! Metadata entries read `ID:N:S1:…:SN:FORMAT`: the ID, the argument
//! count, each argument's size in bytes, and the format string with C
//! escapes (`\n`, `\t`, `\\`, octal …) written out. After the dispatch the
//! host decodes the records in buffer order and formats them with C
//! printf semantics ([`crate::cformat`]), as ROCclr does.

use std::collections::HashMap;

use crate::cformat::{self, Piece};
use crate::error::{Error, Result};
use crate::system::{Region, System};

/// Bytes of the buffer header (used bytes, total size).
pub const HEADER: u64 = 8;

/// Default printf buffer size in bytes, header included.
pub const DEFAULT_SIZE: u32 = 1 << 20;

/// One `amdhsa.printf` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Format {
    /// Size in bytes of each argument, in order.
    pub arg_sizes: Vec<u32>,
    /// The format string, escapes decoded.
    pub text: String,
    /// `text` split into literal text and conversions.
    pub pieces: Vec<Piece>,
}

/// The printf formats of a code object, by ID.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Formats(HashMap<u32, Format>);

fn bad(entry: &str, why: &str) -> Error {
    Error::InvalidArgument(format!("amdhsa.printf entry {entry:?}: {why}"))
}

impl Formats {
    /// Parses the `amdhsa.printf` metadata list.
    pub fn parse(entries: &[String]) -> Result<Formats> {
        let mut map = HashMap::new();
        for entry in entries {
            let (id, format) = parse_entry(entry)?;
            if map.insert(id, format).is_some() {
                return Err(bad(entry, "duplicate format ID"));
            }
        }
        Ok(Formats(map))
    }

    /// The format with ID `id`.
    pub fn get(&self, id: u32) -> Option<&Format> {
        self.0.get(&id)
    }
}

/// Parses `ID:N:S1:…:SN:FORMAT`.
fn parse_entry(entry: &str) -> Result<(u32, Format)> {
    let mut fields = entry.splitn(3, ':');
    let mut num = |what: &str| -> Result<u32> {
        fields
            .next()
            .and_then(|f| f.trim().parse().ok())
            .ok_or_else(|| bad(entry, &format!("expected {what}")))
    };
    let id = num("an ID")?;
    let count = num("an argument count")?;
    let mut rest = fields.next().unwrap_or("");
    let mut arg_sizes = Vec::new();
    for _ in 0..count {
        let (size, tail) = rest
            .split_once(':')
            .ok_or_else(|| bad(entry, "fewer argument sizes than its count"))?;
        arg_sizes.push(
            size.trim()
                .parse()
                .map_err(|_| bad(entry, &format!("`{size}` is not an argument size")))?,
        );
        rest = tail;
    }
    let text = unescape(rest);
    let pieces = cformat::parse(&text).map_err(|e| bad(entry, &e))?;
    let convs = pieces
        .iter()
        .filter(|p| matches!(p, Piece::Conv(_)))
        .count();
    if convs > arg_sizes.len() {
        return Err(bad(
            entry,
            &format!("{convs} conversions but {count} arguments"),
        ));
    }
    Ok((
        id,
        Format {
            arg_sizes,
            text,
            pieces,
        },
    ))
}

/// Decodes the C escapes the compiler wrote into a metadata format string.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(v).unwrap_or('?'));
            }
            other => out.push(other),
        }
    }
    out
}

/// Formats the records of a printf buffer's data area (the bytes after
/// the header, as many as the header says were used). A record that runs
/// past the data or names an unknown format ID is an error naming its
/// offset.
pub fn format_records(data: &[u8], formats: &Formats) -> Result<String> {
    let mut out = String::new();
    let mut at = 0usize;
    let word = |at: usize| -> Option<u32> {
        let b = data.get(at..at + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    while at + 4 <= data.len() {
        let id = word(at).unwrap_or(0);
        let format = formats.get(id).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "printf buffer: record at data offset {at} has format ID {id}, which the code object's amdhsa.printf does not list"
            ))
        })?;
        let mut next = at + 4;
        let mut args = Vec::with_capacity(format.arg_sizes.len());
        for &size in &format.arg_sizes {
            let end = next + size as usize;
            let bytes = data.get(next..end).ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "printf buffer: record at data offset {at} (format {id}) runs past the {} used bytes",
                    data.len()
                ))
            })?;
            args.push(bytes);
            next = end;
        }
        let mut arg = args.iter();
        for piece in &format.pieces {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Conv(spec) => out.push_str(&cformat::format_arg(
                    spec,
                    arg.next().copied().unwrap_or(&[]),
                )),
            }
        }
        at = next;
    }
    Ok(out)
}

/// A printf buffer in device memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrintfBuffer {
    /// Device address (what `hidden_printf_buffer` holds).
    pub address: u64,
    /// Total size in bytes, header included.
    pub size: u32,
}

impl PrintfBuffer {
    /// Allocates a fine-grained buffer of `size` bytes (header included)
    /// and writes its header: nothing used, `size` total.
    pub fn allocate(system: &System, size: u32) -> Result<PrintfBuffer> {
        if u64::from(size) <= HEADER {
            return Err(Error::InvalidArgument(format!(
                "printf buffer of {size} bytes: it needs more than the {HEADER}-byte header"
            )));
        }
        let address = system.allocate(Region::FineGrained, u64::from(size))?;
        let mut header = [0u8; HEADER as usize];
        header[4..].copy_from_slice(&size.to_le_bytes());
        system.write(address, &header)?;
        Ok(PrintfBuffer { address, size })
    }

    /// Reads the records the kernel wrote and formats them.
    pub fn read(&self, system: &System, formats: &Formats) -> Result<String> {
        let mut header = [0u8; 4];
        system.read(self.address, &mut header)?;
        let used = u64::from(u32::from_le_bytes(header));
        let used = used.min(u64::from(self.size) - HEADER) as usize;
        let data = system.read_vec(self.address + HEADER, used)?;
        format_records(&data, formats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_parse() {
        let f = Formats::parse(&[
            "1:1:4:odd %d\\n".to_string(),
            "2:2:4:8:a:b %x %ld\\t\\\\\\101".to_string(),
        ])
        .unwrap();
        assert_eq!(f.get(1).unwrap().arg_sizes, vec![4]);
        assert_eq!(f.get(1).unwrap().text, "odd %d\n");
        assert_eq!(f.get(2).unwrap().arg_sizes, vec![4, 8]);
        assert_eq!(f.get(2).unwrap().text, "a:b %x %ld\t\\A");
        assert!(Formats::parse(&["1:2:4:%d".to_string()]).is_err());
        assert!(Formats::parse(&["x:0:".to_string()]).is_err());
        assert!(Formats::parse(&["1:1:4:%d %d".to_string()]).is_err());
    }

    #[test]
    fn records_decode() {
        let f = Formats::parse(&[
            "1:1:4:odd %d\\n".to_string(),
            "2:2:4:8:%u %ld\\n".to_string(),
        ])
        .unwrap();
        let mut data = Vec::new();
        data.extend(2u32.to_le_bytes());
        data.extend(7u32.to_le_bytes());
        data.extend((-5i64).to_le_bytes());
        data.extend(1u32.to_le_bytes());
        data.extend(3i32.to_le_bytes());
        assert_eq!(format_records(&data, &f).unwrap(), "7 -5\nodd 3\n");
        assert!(format_records(&data[..10], &f).is_err());
        assert!(format_records(&9u32.to_le_bytes(), &f).is_err());
    }
}
