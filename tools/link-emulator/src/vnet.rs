//! The `virtio_net_hdr` (10 bytes, legacy layout) that starts every frame on a TUN device opened with IFF_VNET_HDR:
//! whether the TCP/UDP checksum is still to be done (and where), and whether the frame is a GSO super-packet (and
//! its segment size). Pure: bytes in, fields out, and back.

/// Size of the legacy header (no `num_buffers`), the TUN default (TUNSETVNETHDRSZ not called).
pub const VNET_HEADER_BYTES: usize = 10;
/// `flags`: the L4 checksum is partial; the field at csum_start + csum_offset holds the pseudo-header sum.
pub const FLAG_NEEDS_CSUM: u8 = 1;
/// `gso_type` values (low 7 bits) and the ECN bit.
pub const GSO_NONE: u8 = 0;
pub const GSO_TCPV4: u8 = 1;
pub const GSO_ECN: u8 = 0x80;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VnetHeader {
    pub flags: u8,
    pub gso_type: u8,
    /// Bytes of headers the kernel keeps linear (a hint; never more than the frame).
    pub hdr_len: u16,
    /// Payload bytes per segment of a GSO frame.
    pub gso_size: u16,
    pub csum_start: u16,
    pub csum_offset: u16,
}

impl VnetHeader {
    /// Splits a frame into its header and the IP packet behind it; None when the frame is shorter than a header.
    /// The fields are in the host's byte order (the TUN default on a little-endian host, and virtio 1.0's order).
    pub fn parse(frame: &[u8]) -> Option<(Self, &[u8])> {
        if frame.len() < VNET_HEADER_BYTES {
            return None;
        }
        let u16_at = |at: usize| u16::from_ne_bytes([frame[at], frame[at + 1]]);
        let header = Self {
            flags: frame[0],
            gso_type: frame[1],
            hdr_len: u16_at(2),
            gso_size: u16_at(4),
            csum_start: u16_at(6),
            csum_offset: u16_at(8),
        };
        Some((header, &frame[VNET_HEADER_BYTES..]))
    }

    pub fn to_bytes(self) -> [u8; VNET_HEADER_BYTES] {
        let mut bytes = [0u8; VNET_HEADER_BYTES];
        bytes[0] = self.flags;
        bytes[1] = self.gso_type;
        bytes[2..4].copy_from_slice(&self.hdr_len.to_ne_bytes());
        bytes[4..6].copy_from_slice(&self.gso_size.to_ne_bytes());
        bytes[6..8].copy_from_slice(&self.csum_start.to_ne_bytes());
        bytes[8..10].copy_from_slice(&self.csum_offset.to_ne_bytes());
        bytes
    }

    /// The GSO kind without the ECN bit.
    pub fn gso_kind(&self) -> u8 {
        self.gso_type & !GSO_ECN
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_survives_a_round_trip_and_short_frames_are_rejected() {
        let header = VnetHeader {
            flags: FLAG_NEEDS_CSUM,
            gso_type: GSO_TCPV4 | GSO_ECN,
            hdr_len: 52,
            gso_size: 1448,
            csum_start: 20,
            csum_offset: 16,
        };
        let mut frame = header.to_bytes().to_vec();
        frame.extend_from_slice(&[0x45, 0, 0, 20]);
        let (parsed, packet) = VnetHeader::parse(&frame).unwrap();
        assert_eq!(parsed, header);
        assert_eq!(parsed.gso_kind(), GSO_TCPV4);
        assert_eq!(packet, &[0x45, 0, 0, 20]);
        assert!(VnetHeader::parse(&frame[..9]).is_none());
        assert_eq!(VnetHeader::parse(&frame[..10]).unwrap().1.len(), 0);
    }
}
