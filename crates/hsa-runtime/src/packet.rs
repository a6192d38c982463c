//! AQL packets (HSA Platform System Architecture spec §2.9; HSA Runtime
//! spec §2.6.1): 64-byte little-endian records in a queue's ring buffer.
//!
//! Every packet starts with a 16-bit header: bits 0–7 the packet type,
//! bit 8 the barrier bit, bits 9–10 the acquire fence scope, bits 11–12
//! the release fence scope. A producer writes the body first and the
//! header last, with release semantics, together with the next 16 bits
//! (the dispatch `setup` word) as one 32-bit store.
//!
//! Kernel dispatch packet (`hsa_kernel_dispatch_packet_t`):
//!
//! | offset | field |
//! |-------:|-------|
//! | 0  | header (u16) |
//! | 2  | setup (u16): dimensions in bits 0–1 |
//! | 4  | workgroup_size_x/y/z (u16 ×3) |
//! | 10 | reserved0 (u16) |
//! | 12 | grid_size_x/y/z (u32 ×3) |
//! | 24 | private_segment_size (u32) |
//! | 28 | group_segment_size (u32) |
//! | 32 | kernel_object (u64) |
//! | 40 | kernarg_address (u64) |
//! | 48 | reserved2 (u64) |
//! | 56 | completion_signal (u64) |
//!
//! Barrier-AND / barrier-OR packets (`hsa_barrier_and_packet_t`,
//! `hsa_barrier_or_packet_t`): header at 0, reserved to 8, `dep_signal[5]`
//! (u64 handles, 0 = none) at 8, reserved2 at 48, completion_signal at 56.

/// Size of an AQL packet.
pub const PACKET_SIZE: u64 = 64;

/// `hsa_packet_type_t`: the low 8 bits of the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PacketType {
    /// `HSA_PACKET_TYPE_VENDOR_SPECIFIC` (0).
    VendorSpecific = 0,
    /// `HSA_PACKET_TYPE_INVALID` (1): not yet written; the packet
    /// processor waits.
    Invalid = 1,
    /// `HSA_PACKET_TYPE_KERNEL_DISPATCH` (2).
    KernelDispatch = 2,
    /// `HSA_PACKET_TYPE_BARRIER_AND` (3).
    BarrierAnd = 3,
    /// `HSA_PACKET_TYPE_AGENT_DISPATCH` (4).
    AgentDispatch = 4,
    /// `HSA_PACKET_TYPE_BARRIER_OR` (5).
    BarrierOr = 5,
}

impl PacketType {
    /// The type of a header, or `None` for an undefined type number.
    pub fn from_header(header: u16) -> Option<PacketType> {
        Some(match header & 0xff {
            0 => PacketType::VendorSpecific,
            1 => PacketType::Invalid,
            2 => PacketType::KernelDispatch,
            3 => PacketType::BarrierAnd,
            4 => PacketType::AgentDispatch,
            5 => PacketType::BarrierOr,
            _ => return None,
        })
    }
}

/// `hsa_fence_scope_t`. The emulator's memory is coherent, so fences
/// need no action; the scopes are carried for fidelity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum FenceScope {
    /// `HSA_FENCE_SCOPE_NONE`.
    None = 0,
    /// `HSA_FENCE_SCOPE_AGENT`.
    Agent = 1,
    /// `HSA_FENCE_SCOPE_SYSTEM`.
    #[default]
    System = 2,
}

impl FenceScope {
    fn from_bits(bits: u16) -> FenceScope {
        match bits & 3 {
            0 => FenceScope::None,
            1 => FenceScope::Agent,
            // 3 is reserved; treat as the widest scope.
            _ => FenceScope::System,
        }
    }
}

/// Bit position of the barrier bit.
pub const HEADER_BARRIER: u16 = 8;
/// Bit position of the acquire fence scope.
pub const HEADER_ACQUIRE_FENCE_SCOPE: u16 = 9;
/// Bit position of the release fence scope.
pub const HEADER_RELEASE_FENCE_SCOPE: u16 = 11;

/// A decoded packet header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Header {
    /// Packet type.
    pub packet_type: PacketType,
    /// Barrier bit: start only after every earlier packet completed.
    /// This packet processor runs packets one at a time, so every packet
    /// behaves as if the bit were set.
    pub barrier: bool,
    /// Acquire fence scope.
    pub acquire: FenceScope,
    /// Release fence scope.
    pub release: FenceScope,
}

impl Header {
    /// A header of `packet_type` with the barrier bit set and system-scope
    /// fences (what ROCr's examples use).
    pub fn new(packet_type: PacketType) -> Header {
        Header {
            packet_type,
            barrier: true,
            acquire: FenceScope::System,
            release: FenceScope::System,
        }
    }

    /// The 16-bit header.
    pub fn bits(&self) -> u16 {
        u16::from(self.packet_type as u8)
            | u16::from(self.barrier) << HEADER_BARRIER
            | (self.acquire as u16) << HEADER_ACQUIRE_FENCE_SCOPE
            | (self.release as u16) << HEADER_RELEASE_FENCE_SCOPE
    }

    /// Decodes a header; `None` for an undefined packet type.
    pub fn from_bits(bits: u16) -> Option<Header> {
        Some(Header {
            packet_type: PacketType::from_header(bits)?,
            barrier: bits >> HEADER_BARRIER & 1 != 0,
            acquire: FenceScope::from_bits(bits >> HEADER_ACQUIRE_FENCE_SCOPE),
            release: FenceScope::from_bits(bits >> HEADER_RELEASE_FENCE_SCOPE),
        })
    }
}

fn u16_at(b: &[u8; 64], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8; 64], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8; 64], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

/// A kernel dispatch packet (`hsa_kernel_dispatch_packet_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DispatchPacket {
    /// Barrier bit.
    pub barrier: bool,
    /// Acquire fence scope.
    pub acquire: FenceScope,
    /// Release fence scope.
    pub release: FenceScope,
    /// Grid dimensions (1–3; the `setup` field).
    pub dims: u16,
    /// Work-group size in work-items per dimension.
    pub workgroup_size: [u16; 3],
    /// Grid size in work-items per dimension.
    pub grid_size: [u32; 3],
    /// Private (scratch) bytes per work-item requested by the caller; the
    /// packet processor uses at least the kernel's fixed size.
    pub private_segment_size: u32,
    /// Group (LDS) bytes per work-group: the kernel's fixed size plus any
    /// dynamic allocation.
    pub group_segment_size: u32,
    /// Kernel object: device address of the kernel descriptor.
    pub kernel_object: u64,
    /// Device address of the kernarg segment (16-byte aligned).
    pub kernarg_address: u64,
    /// Completion signal handle (0: none).
    pub completion_signal: u64,
}

impl Default for DispatchPacket {
    fn default() -> Self {
        DispatchPacket {
            barrier: true,
            acquire: FenceScope::System,
            release: FenceScope::System,
            dims: 1,
            workgroup_size: [1; 3],
            grid_size: [1; 3],
            private_segment_size: 0,
            group_segment_size: 0,
            kernel_object: 0,
            kernarg_address: 0,
            completion_signal: 0,
        }
    }
}

impl DispatchPacket {
    /// The header this packet is published with.
    pub fn header(&self) -> Header {
        Header {
            packet_type: PacketType::KernelDispatch,
            barrier: self.barrier,
            acquire: self.acquire,
            release: self.release,
        }
    }

    /// The 64 packet bytes, header included.
    pub fn to_bytes(&self) -> [u8; 64] {
        let mut b = [0u8; 64];
        b[0..2].copy_from_slice(&self.header().bits().to_le_bytes());
        b[2..4].copy_from_slice(&self.dims.to_le_bytes());
        for d in 0..3 {
            b[4 + 2 * d..6 + 2 * d].copy_from_slice(&self.workgroup_size[d].to_le_bytes());
            b[12 + 4 * d..16 + 4 * d].copy_from_slice(&self.grid_size[d].to_le_bytes());
        }
        b[24..28].copy_from_slice(&self.private_segment_size.to_le_bytes());
        b[28..32].copy_from_slice(&self.group_segment_size.to_le_bytes());
        b[32..40].copy_from_slice(&self.kernel_object.to_le_bytes());
        b[40..48].copy_from_slice(&self.kernarg_address.to_le_bytes());
        b[56..64].copy_from_slice(&self.completion_signal.to_le_bytes());
        b
    }

    /// Decodes packet bytes (the header's type is not checked).
    pub fn from_bytes(b: &[u8; 64]) -> DispatchPacket {
        let h = u16_at(b, 0);
        DispatchPacket {
            barrier: h >> HEADER_BARRIER & 1 != 0,
            acquire: FenceScope::from_bits(h >> HEADER_ACQUIRE_FENCE_SCOPE),
            release: FenceScope::from_bits(h >> HEADER_RELEASE_FENCE_SCOPE),
            dims: u16_at(b, 2) & 3,
            workgroup_size: std::array::from_fn(|d| u16_at(b, 4 + 2 * d)),
            grid_size: std::array::from_fn(|d| u32_at(b, 12 + 4 * d)),
            private_segment_size: u32_at(b, 24),
            group_segment_size: u32_at(b, 28),
            kernel_object: u64_at(b, 32),
            kernarg_address: u64_at(b, 40),
            completion_signal: u64_at(b, 56),
        }
    }
}

/// A barrier-AND or barrier-OR packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BarrierPacket {
    /// AND (all dependencies at 0) or OR (any at 0).
    pub packet_type: PacketType,
    /// Barrier bit.
    pub barrier: bool,
    /// Acquire fence scope.
    pub acquire: FenceScope,
    /// Release fence scope.
    pub release: FenceScope,
    /// Dependency signal handles (0: unused slot).
    pub dep_signals: [u64; 5],
    /// Completion signal handle (0: none).
    pub completion_signal: u64,
}

impl BarrierPacket {
    /// The 64 packet bytes, header included.
    pub fn to_bytes(&self) -> [u8; 64] {
        let mut b = [0u8; 64];
        let h = Header {
            packet_type: self.packet_type,
            barrier: self.barrier,
            acquire: self.acquire,
            release: self.release,
        };
        b[0..2].copy_from_slice(&h.bits().to_le_bytes());
        for (i, s) in self.dep_signals.iter().enumerate() {
            b[8 + 8 * i..16 + 8 * i].copy_from_slice(&s.to_le_bytes());
        }
        b[56..64].copy_from_slice(&self.completion_signal.to_le_bytes());
        b
    }

    /// Decodes packet bytes; `None` unless the type is barrier-AND or -OR.
    pub fn from_bytes(b: &[u8; 64]) -> Option<BarrierPacket> {
        let h = Header::from_bits(u16_at(b, 0))?;
        if !matches!(
            h.packet_type,
            PacketType::BarrierAnd | PacketType::BarrierOr
        ) {
            return None;
        }
        Some(BarrierPacket {
            packet_type: h.packet_type,
            barrier: h.barrier,
            acquire: h.acquire,
            release: h.release,
            dep_signals: std::array::from_fn(|i| u64_at(b, 8 + 8 * i)),
            completion_signal: u64_at(b, 56),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_bits_follow_the_spec() {
        // Dispatch, barrier, system acquire, system release: ROCr's usual 0x1502.
        assert_eq!(Header::new(PacketType::KernelDispatch).bits(), 0x1502);
        let h = Header::from_bits(0x0b03).unwrap();
        assert_eq!(h.packet_type, PacketType::BarrierAnd);
        assert!(h.barrier);
        assert_eq!(h.acquire, FenceScope::Agent);
        assert_eq!(h.release, FenceScope::Agent);
        assert_eq!(Header::from_bits(0x0006), None);
    }

    #[test]
    fn dispatch_packet_round_trips() {
        let p = DispatchPacket {
            dims: 3,
            workgroup_size: [8, 4, 2],
            grid_size: [80, 40, 6],
            private_segment_size: 16,
            group_segment_size: 1024,
            kernel_object: 0x1_0000_1000,
            kernarg_address: 0x2_0000_0000,
            completion_signal: 0x3_0000_0000,
            ..Default::default()
        };
        let b = p.to_bytes();
        assert_eq!(u16_at(&b, 4), 8);
        assert_eq!(u32_at(&b, 16), 40);
        assert_eq!(u64_at(&b, 32), 0x1_0000_1000);
        assert_eq!(DispatchPacket::from_bytes(&b), p);
    }
}
