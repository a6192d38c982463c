//! ELF64 little-endian structures and the AMDGPU-specific constants
//! (AMDGPUUsage "ELF Code Object"). Spec-named `#[repr(C)]` structs read
//! zero-copy with `zerocopy`; byte-order-aware fields, no alignment needed.

#![allow(non_camel_case_types, missing_docs)]

use zerocopy::byteorder::little_endian::{I64, U16, U32, U64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// `Elf64_Ehdr`.
#[derive(Debug, Clone, Copy, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Elf64_Ehdr {
    pub e_ident: [u8; 16],
    pub e_type: U16,
    pub e_machine: U16,
    pub e_version: U32,
    pub e_entry: U64,
    pub e_phoff: U64,
    pub e_shoff: U64,
    pub e_flags: U32,
    pub e_ehsize: U16,
    pub e_phentsize: U16,
    pub e_phnum: U16,
    pub e_shentsize: U16,
    pub e_shnum: U16,
    pub e_shstrndx: U16,
}

/// `Elf64_Shdr`.
#[derive(Debug, Clone, Copy, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Elf64_Shdr {
    pub sh_name: U32,
    pub sh_type: U32,
    pub sh_flags: U64,
    pub sh_addr: U64,
    pub sh_offset: U64,
    pub sh_size: U64,
    pub sh_link: U32,
    pub sh_info: U32,
    pub sh_addralign: U64,
    pub sh_entsize: U64,
}

/// `Elf64_Phdr`.
#[derive(Debug, Clone, Copy, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Elf64_Phdr {
    pub p_type: U32,
    pub p_flags: U32,
    pub p_offset: U64,
    pub p_vaddr: U64,
    pub p_paddr: U64,
    pub p_filesz: U64,
    pub p_memsz: U64,
    pub p_align: U64,
}

/// `Elf64_Sym`.
#[derive(Debug, Clone, Copy, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Elf64_Sym {
    pub st_name: U32,
    pub st_info: u8,
    pub st_other: u8,
    pub st_shndx: U16,
    pub st_value: U64,
    pub st_size: U64,
}

/// `Elf64_Rela`.
#[derive(Debug, Clone, Copy, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Elf64_Rela {
    pub r_offset: U64,
    pub r_info: U64,
    pub r_addend: I64,
}

/// `Elf64_Dyn`.
#[derive(Debug, Clone, Copy, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Elf64_Dyn {
    pub d_tag: I64,
    pub d_val: U64,
}

/// `Elf64_Nhdr`.
#[derive(Debug, Clone, Copy, Default, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct Elf64_Nhdr {
    pub n_namesz: U32,
    pub n_descsz: U32,
    pub n_type: U32,
}

pub const ELFMAG: [u8; 4] = [0x7f, b'E', b'L', b'F'];
pub const ELFCLASS64: u8 = 2;
pub const ELFDATA2LSB: u8 = 1;
pub const EV_CURRENT: u8 = 1;
pub const EI_CLASS: usize = 4;
pub const EI_DATA: usize = 5;
pub const EI_VERSION: usize = 6;
pub const EI_OSABI: usize = 7;
pub const EI_ABIVERSION: usize = 8;

pub const ET_REL: u16 = 1;
pub const ET_EXEC: u16 = 2;
pub const ET_DYN: u16 = 3;
/// `EM_AMDGPU`.
pub const EM_AMDGPU: u16 = 224;

pub const ELFOSABI_NONE: u8 = 0;
pub const ELFOSABI_AMDGPU_HSA: u8 = 64;
pub const ELFOSABI_AMDGPU_PAL: u8 = 65;
pub const ELFOSABI_AMDGPU_MESA3D: u8 = 66;
pub const ELFABIVERSION_AMDGPU_HSA_V2: u8 = 0;
pub const ELFABIVERSION_AMDGPU_HSA_V3: u8 = 1;
pub const ELFABIVERSION_AMDGPU_HSA_V4: u8 = 2;
pub const ELFABIVERSION_AMDGPU_HSA_V5: u8 = 3;
pub const ELFABIVERSION_AMDGPU_HSA_V6: u8 = 4;

pub const EF_AMDGPU_MACH: u32 = 0x0ff;
pub const EF_AMDGPU_FEATURE_XNACK_V2: u32 = 0x01;
pub const EF_AMDGPU_FEATURE_TRAP_HANDLER_V2: u32 = 0x02;
pub const EF_AMDGPU_FEATURE_XNACK_V3: u32 = 0x100;
pub const EF_AMDGPU_FEATURE_SRAMECC_V3: u32 = 0x200;
pub const EF_AMDGPU_FEATURE_XNACK_V4: u32 = 0x300;
pub const EF_AMDGPU_FEATURE_SRAMECC_V4: u32 = 0xc00;
pub const EF_AMDGPU_GENERIC_VERSION: u32 = 0xff00_0000;

pub const SHT_NULL: u32 = 0;
pub const SHT_PROGBITS: u32 = 1;
pub const SHT_SYMTAB: u32 = 2;
pub const SHT_STRTAB: u32 = 3;
pub const SHT_RELA: u32 = 4;
pub const SHT_HASH: u32 = 5;
pub const SHT_DYNAMIC: u32 = 6;
pub const SHT_NOTE: u32 = 7;
pub const SHT_NOBITS: u32 = 8;
pub const SHT_REL: u32 = 9;
pub const SHT_DYNSYM: u32 = 11;
pub const SHT_GNU_HASH: u32 = 0x6fff_fff6;

pub const SHF_WRITE: u64 = 1;
pub const SHF_ALLOC: u64 = 2;
pub const SHF_EXECINSTR: u64 = 4;
pub const SHF_MERGE: u64 = 0x10;
pub const SHF_STRINGS: u64 = 0x20;

pub const PT_LOAD: u32 = 1;
pub const PT_DYNAMIC: u32 = 2;
pub const PT_NOTE: u32 = 4;
pub const PT_PHDR: u32 = 6;
pub const PT_GNU_STACK: u32 = 0x6474_e551;
pub const PT_GNU_RELRO: u32 = 0x6474_e552;
pub const PF_X: u32 = 1;
pub const PF_W: u32 = 2;
pub const PF_R: u32 = 4;

pub const STB_LOCAL: u8 = 0;
pub const STB_GLOBAL: u8 = 1;
pub const STB_WEAK: u8 = 2;
pub const STT_NOTYPE: u8 = 0;
pub const STT_OBJECT: u8 = 1;
pub const STT_FUNC: u8 = 2;
pub const STT_SECTION: u8 = 3;
/// Code object v2 kernel symbol type.
pub const STT_AMDGPU_HSA_KERNEL: u8 = 10;
pub const STV_DEFAULT: u8 = 0;
pub const STV_HIDDEN: u8 = 2;
pub const STV_PROTECTED: u8 = 3;
pub const SHN_UNDEF: u16 = 0;
pub const SHN_ABS: u16 = 0xfff1;
/// Section index of LDS variables (`.amdgpu_lds`, AMDGPUUsage "Symbols").
pub const SHN_AMDGPU_LDS: u16 = 0xff00;

pub const DT_NULL: i64 = 0;
pub const DT_HASH: i64 = 4;
pub const DT_STRTAB: i64 = 5;
pub const DT_SYMTAB: i64 = 6;
pub const DT_STRSZ: i64 = 10;
pub const DT_SYMENT: i64 = 11;
pub const DT_GNU_HASH: i64 = 0x6fff_fef5;

/// Note types in the "AMDGPU" namespace (v3+).
pub const NT_AMDGPU_METADATA: u32 = 32;
/// Note types in the "AMD" namespace (v2).
pub const NT_AMD_HSA_CODE_OBJECT_VERSION: u32 = 1;
pub const NT_AMD_HSA_HSAIL: u32 = 2;
pub const NT_AMD_HSA_ISA_VERSION: u32 = 3;
pub const NT_AMD_HSA_METADATA: u32 = 10;
pub const NT_AMD_HSA_ISA_NAME: u32 = 11;
pub const NT_AMD_PAL_METADATA: u32 = 12;

/// AMDGPU relocation types.
pub const R_AMDGPU_NONE: u32 = 0;
pub const R_AMDGPU_ABS32_LO: u32 = 1;
pub const R_AMDGPU_ABS32_HI: u32 = 2;
pub const R_AMDGPU_ABS64: u32 = 3;
pub const R_AMDGPU_REL32: u32 = 4;
pub const R_AMDGPU_REL64: u32 = 5;
pub const R_AMDGPU_ABS32: u32 = 6;
pub const R_AMDGPU_GOTPCREL: u32 = 7;
pub const R_AMDGPU_GOTPCREL32_LO: u32 = 8;
pub const R_AMDGPU_GOTPCREL32_HI: u32 = 9;
pub const R_AMDGPU_REL32_LO: u32 = 10;
pub const R_AMDGPU_REL32_HI: u32 = 11;
pub const R_AMDGPU_RELATIVE64: u32 = 13;
pub const R_AMDGPU_REL16: u32 = 14;

/// LLVM's name of an AMDGPU relocation type.
pub fn reloc_name(r_type: u32) -> Option<&'static str> {
    Some(match r_type {
        R_AMDGPU_NONE => "R_AMDGPU_NONE",
        R_AMDGPU_ABS32_LO => "R_AMDGPU_ABS32_LO",
        R_AMDGPU_ABS32_HI => "R_AMDGPU_ABS32_HI",
        R_AMDGPU_ABS64 => "R_AMDGPU_ABS64",
        R_AMDGPU_REL32 => "R_AMDGPU_REL32",
        R_AMDGPU_REL64 => "R_AMDGPU_REL64",
        R_AMDGPU_ABS32 => "R_AMDGPU_ABS32",
        R_AMDGPU_GOTPCREL => "R_AMDGPU_GOTPCREL",
        R_AMDGPU_GOTPCREL32_LO => "R_AMDGPU_GOTPCREL32_LO",
        R_AMDGPU_GOTPCREL32_HI => "R_AMDGPU_GOTPCREL32_HI",
        R_AMDGPU_REL32_LO => "R_AMDGPU_REL32_LO",
        R_AMDGPU_REL32_HI => "R_AMDGPU_REL32_HI",
        R_AMDGPU_RELATIVE64 => "R_AMDGPU_RELATIVE64",
        R_AMDGPU_REL16 => "R_AMDGPU_REL16",
        _ => return None,
    })
}
